package dev.quiver.sql.physical;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.types.QuiverTypes;
import java.math.BigDecimal;
import java.math.RoundingMode;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Calcite literals to the Java values of {@link QuiverTypes}. Calcite keeps every exact numeric as
 * a {@link BigDecimal} (INTEGER literals too, with type name DECIMAL) and dates as a
 * calendar, so each value is converted by the literal's <em>type</em>, not its type name.
 */
final class Literals {
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
