package dev.quiver.sql.physical;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.types.QuiverTypes;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.math.RoundingMode;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.TimestampString;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Calcite literals to the Java values of {@link QuiverTypes}. Calcite keeps every exact numeric as
 * a {@link BigDecimal} (INTEGER literals too, with type name DECIMAL) and dates as a
 * calendar, so each value is converted by the literal's <em>type</em>, not its type name.
 */
final class Literals {
    private static final long MICROS_PER_DAY = 86_400_000_000L;
    /** 0001-01-01 and 9999-12-31 as days since 1970-01-01. */
    private static final long FIRST_LITERAL_DAY = LocalDate.of(1, 1, 1).toEpochDay();
    private static final long LAST_LITERAL_DAY = LocalDate.of(9999, 12, 31).toEpochDay();

    private Literals() {}

    /** The value of {@code literal} as the Java value for {@code type}, or null for NULL. */
    static Object value(RexLiteral literal, ArrowType type) {
        if (literal.isNull()) {
            return null;
        }
        SqlTypeName typeName = literal.getType().getSqlTypeName();
        if (type instanceof ArrowType.Bool) {
            return literal.getValueAs(Boolean.class);
        }
        if (type instanceof ArrowType.Int i) {
            BigDecimal number = literal.getValueAs(BigDecimal.class);
            try {
                return i.getBitWidth() == 64 ? (Object) number.longValueExact() : (Object) number.intValueExact();
            } catch (ArithmeticException e) {
                throw new QuiverException(ErrorCode.NUMERIC_VALUE_OUT_OF_RANGE,
                        "The literal " + number + " does not fit " + QuiverTypes.sqlName(type));
            }
        }
        if (type instanceof ArrowType.Decimal d) {
            return literal.getValueAs(BigDecimal.class).setScale(d.getScale(), RoundingMode.HALF_UP);
        }
        if (type instanceof ArrowType.FloatingPoint) {
            return literal.getValueAs(Double.class);
        }
        if (type instanceof ArrowType.Utf8) {
            return literal.getValueAs(String.class);
        }
        if (type instanceof ArrowType.Date) {
            return literal.getValueAs(Integer.class);
        }
        if (type instanceof ArrowType.Timestamp) {
            return TemporalLiterals.micros(literal);
        }
        throw new QuiverException(ErrorCode.NOT_SUPPORTED, "Literals of type " + typeName + " are not supported: " + literal);
    }

    /**
     * The engine's Java value for {@code type} (see {@link QuiverTypes}) as a Calcite literal of
     * exactly that type (with a nullability cast where the type is nullable), or null when no
     * literal of the type holds it (a string longer than a VARCHAR(n), a type with no literals).
     */
    static RexNode toRex(RexBuilder rexBuilder, Object value, RelDataType type) {
        if (value == null) {
            return rexBuilder.makeNullLiteral(type);
        }
        RelDataType notNull = rexBuilder.getTypeFactory().createTypeWithNullability(type, false);
        RexLiteral literal = switch (type.getSqlTypeName()) {
            case BOOLEAN -> rexBuilder.makeLiteral((Boolean) value);
            case TINYINT, SMALLINT, INTEGER, BIGINT -> rexBuilder.makeExactLiteral(BigDecimal.valueOf(((Number) value).longValue()), notNull);
            case DECIMAL -> rexBuilder.makeExactLiteral((BigDecimal) value, notNull);
            case DOUBLE, FLOAT, REAL -> rexBuilder.makeApproxLiteral((Double) value, notNull);
            case CHAR, VARCHAR -> fits((String) value, type) ? (RexLiteral) rexBuilder.makeLiteral(value, notNull, false) : null;
            case DATE -> inLiteralRange((Integer) value) ? rexBuilder.makeDateLiteral(DateString.fromDaysSinceEpoch((Integer) value)) : null;
            // a literal's value is read back in milliseconds (see value): finer timestamps stay unfolded
            case TIMESTAMP -> (Long) value % 1000 == 0 && inLiteralRange(Math.floorDiv((Long) value, MICROS_PER_DAY))
                    ? rexBuilder.makeTimestampLiteral(timestamp((Long) value), type.getPrecision()) : null;
            default -> null;
        };
        if (literal == null) {
            return null;
        }
        return type.isNullable() ? rexBuilder.makeAbstractCast(type, literal, false) : literal;
    }

    /** Whether a CHAR(n) or VARCHAR(n) literal holds {@code value} unchanged (no padding, no truncation). */
    private static boolean fits(String value, RelDataType type) {
        int length = value.codePointCount(0, value.length());
        if (type.getPrecision() == RelDataType.PRECISION_NOT_SPECIFIED) {
            return true;
        }
        return type.getSqlTypeName() == SqlTypeName.CHAR ? length == type.getPrecision() : length <= type.getPrecision();
    }

    /**
     * Whether the day {@code epochDay} has a Calcite literal: years 1 to 9999 (Calcite's date strings
     * have four digits and no year 0). The engine's dates reach further; such a value stays unfolded.
     */
    private static boolean inLiteralRange(long epochDay) {
        return epochDay >= FIRST_LITERAL_DAY && epochDay <= LAST_LITERAL_DAY;
    }

    private static TimestampString timestamp(long micros) {
        long millis = Math.floorDiv(micros, 1000L);
        int nanos = (int) Math.floorMod(micros, 1_000_000L) * 1000;
        return TimestampString.fromMillisSinceEpoch(millis).withNanos(nanos);
    }

    /** A constant number as the Java value of numeric {@code type}, failing if it does not fit. */
    static Object convertNumber(Number number, ArrowType type) {
        BigDecimal value = number instanceof BigDecimal d ? d
                : number instanceof Double || number instanceof Float ? BigDecimal.valueOf(number.doubleValue())
                : BigDecimal.valueOf(number.longValue());
        try {
            if (type instanceof ArrowType.Int i) {
                return i.getBitWidth() == 64 ? (Object) value.setScale(0, RoundingMode.HALF_UP).longValueExact()
                        : (Object) value.setScale(0, RoundingMode.HALF_UP).intValueExact();
            }
            if (type instanceof ArrowType.Decimal d) {
                BigDecimal scaled = value.setScale(d.getScale(), RoundingMode.HALF_UP);
                if (scaled.precision() - scaled.scale() > d.getPrecision() - d.getScale()) {
                    throw new ArithmeticException("too many digits");
                }
                return scaled;
            }
            return value.doubleValue();
        } catch (ArithmeticException e) {
            throw new QuiverException(ErrorCode.NUMERIC_VALUE_OUT_OF_RANGE,
                    "The value " + number + " does not fit " + QuiverTypes.sqlName(type));
        }
    }

    /** Some non-null value of {@code type} (zero, empty, false), e.g. to stand in for NULL in a key. */
    static Object zero(ArrowType type) {
        if (QuiverTypes.isNumeric(type)) {
            return convertNumber(0, type);
        }
        if (type instanceof ArrowType.Utf8) {
            return "";
        }
        if (type instanceof ArrowType.Bool) {
            return false;
        }
        if (type instanceof ArrowType.Date) {
            return 0;
        }
        if (type instanceof ArrowType.Timestamp) {
            return 0L;
        }
        throw new QuiverException(ErrorCode.NOT_SUPPORTED, "No placeholder value for type " + QuiverTypes.sqlName(type));
    }
}
