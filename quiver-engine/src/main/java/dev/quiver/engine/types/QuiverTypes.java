package dev.quiver.engine.types;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.PlanChecks;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;

/**
 * The Arrow types Quiver computes with, and the Java values that stand for them in literals,
 * statistics and row readers:
 *
 * <table>
 * <tr><th>type</th><th>Arrow</th><th>Java value</th></tr>
 * <tr><td>BOOLEAN</td><td>Bool</td><td>Boolean</td></tr>
 * <tr><td>INTEGER</td><td>Int(32, signed)</td><td>Integer</td></tr>
 * <tr><td>BIGINT</td><td>Int(64, signed)</td><td>Long</td></tr>
 * <tr><td>DOUBLE</td><td>FloatingPoint(DOUBLE)</td><td>Double</td></tr>
 * <tr><td>DECIMAL(p,s)</td><td>Decimal(p, s, 128)</td><td>BigDecimal with scale s</td></tr>
 * <tr><td>VARCHAR</td><td>Utf8</td><td>String</td></tr>
 * <tr><td>DATE</td><td>Date(DAY)</td><td>Integer days since 1970-01-01</td></tr>
 * <tr><td>TIMESTAMP</td><td>Timestamp(MICROSECOND, no zone)</td><td>Long microseconds since the epoch</td></tr>
 * </table>
 */
public final class QuiverTypes {
    public static final ArrowType BOOLEAN = ArrowType.Bool.INSTANCE;
    public static final ArrowType INT32 = new ArrowType.Int(32, true);
    public static final ArrowType INT64 = new ArrowType.Int(64, true);
    public static final ArrowType FLOAT64 = new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
    public static final ArrowType UTF8 = ArrowType.Utf8.INSTANCE;
    public static final ArrowType DATE32 = new ArrowType.Date(DateUnit.DAY);
    public static final ArrowType TIMESTAMP = new ArrowType.Timestamp(TimeUnit.MICROSECOND, null);
    public static final ArrowType NULL = ArrowType.Null.INSTANCE;

    /** The largest decimal precision; precision above 18 needs 128-bit arithmetic. */
    public static final int MAX_DECIMAL_PRECISION = 38;
    public static final int MAX_LONG_DECIMAL_PRECISION = 18;

    private QuiverTypes() {}

    public static ArrowType.Decimal decimal(int precision, int scale) {
        PlanChecks.checkArgument(precision >= 1 && precision <= MAX_DECIMAL_PRECISION && scale >= 0 && scale <= precision, "decimal type",
                "decimal(%s, %s) needs 1 <= precision <= %s and 0 <= scale <= precision", precision, scale, MAX_DECIMAL_PRECISION);
        return new ArrowType.Decimal(precision, scale, 128);
    }

    public static Field field(String name, ArrowType type, boolean nullable) {
        return new Field(name, new FieldType(nullable, type, null), null);
    }

    public static boolean isDecimal(ArrowType type) {
        return type instanceof ArrowType.Decimal;
    }

    public static boolean isInteger(ArrowType type) {
        return type instanceof ArrowType.Int;
    }

    public static boolean isNumeric(ArrowType type) {
        return type instanceof ArrowType.Int || type instanceof ArrowType.Decimal || type instanceof ArrowType.FloatingPoint;
    }

    /**
     * The type two values convert to when one expression yields either ({@code coalesce},
     * {@code CASE} branches, comparisons): the wider integer, a decimal holding the digits of
     * both (at most 38), DOUBLE when either is DOUBLE, TIMESTAMP for a DATE with a TIMESTAMP.
     * Other mixes fail with TYPE_MISMATCH.
     */
    public static ArrowType commonType(ArrowType left, ArrowType right) {
        if (left.equals(right) || right instanceof ArrowType.Null) {
            return left;
        }
        if (left instanceof ArrowType.Null) {
            return right;
        }
        if (isDatetime(left) && isDatetime(right)) {
            return TIMESTAMP;
        }
        if (!isNumeric(left) || !isNumeric(right)) {
            throw new QuiverException(ErrorCode.TYPE_MISMATCH, "No common type for " + sqlName(left) + " and " + sqlName(right));
        }
        if (left instanceof ArrowType.FloatingPoint || right instanceof ArrowType.FloatingPoint) {
            return FLOAT64;
        }
        if (left instanceof ArrowType.Int l && right instanceof ArrowType.Int r) {
            return l.getBitWidth() >= r.getBitWidth() ? l : r;
        }
        int scale = Math.max(scale(left), scale(right));
        int integerDigits = Math.max(precision(left) - scale(left), precision(right) - scale(right));
        return decimal(Math.min(MAX_DECIMAL_PRECISION, integerDigits + scale), scale);
    }

    private static boolean isDatetime(ArrowType type) {
        return type instanceof ArrowType.Date || type instanceof ArrowType.Timestamp;
    }

    /** The decimal scale of a number type: 0 for integers. */
    private static int scale(ArrowType type) {
        return type instanceof ArrowType.Decimal d ? d.getScale() : 0;
    }

    /** Decimal digits a number type holds: 10 for INTEGER, 19 for BIGINT. */
    private static int precision(ArrowType type) {
        if (type instanceof ArrowType.Decimal d) {
            return d.getPrecision();
        }
        return ((ArrowType.Int) type).getBitWidth() <= 32 ? 10 : 19;
    }

    /** SQL-style name for messages and plan display: {@code DECIMAL(15,2)}, {@code BIGINT}. */
    public static String sqlName(ArrowType type) {
        if (type instanceof ArrowType.Decimal d) {
            return "DECIMAL(" + d.getPrecision() + "," + d.getScale() + ")";
        }
        if (type instanceof ArrowType.Int i) {
            return switch (i.getBitWidth()) {
                case 8 -> "TINYINT";
                case 16 -> "SMALLINT";
                case 32 -> "INTEGER";
                default -> "BIGINT";
            };
        }
        if (type instanceof ArrowType.FloatingPoint f) {
            return f.getPrecision() == FloatingPointPrecision.DOUBLE ? "DOUBLE" : "REAL";
        }
        if (type instanceof ArrowType.Utf8 || type instanceof ArrowType.LargeUtf8) {
            return "VARCHAR";
        }
        if (type instanceof ArrowType.Bool) {
            return "BOOLEAN";
        }
        if (type instanceof ArrowType.Date) {
            return "DATE";
        }
        if (type instanceof ArrowType.Timestamp) {
            return "TIMESTAMP";
        }
        if (type instanceof ArrowType.Null) {
            return "NULL";
        }
        return type.toString();
    }
}
