package dev.quiver.sql.physical;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.types.QuiverTypes;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;

/**
 * Calcite SQL types to the Arrow types of {@link QuiverTypes}, and the common type two values are
 * compared or joined in.
 */
public final class TypeMapping {
    private static final int INT32_DIGITS = 10;
    private static final int INT64_DIGITS = 19;

    private TypeMapping() {}

    /** The Arrow type that stands for {@code type}; NOT_SUPPORTED for types Quiver does not compute with. */
    public static ArrowType toArrow(RelDataType type) {
        return switch (type.getSqlTypeName()) {
            case BOOLEAN -> QuiverTypes.BOOLEAN;
            case TINYINT, SMALLINT, INTEGER -> QuiverTypes.INT32;
            case BIGINT -> QuiverTypes.INT64;
            case DECIMAL -> QuiverTypes.decimal(type.getPrecision(), Math.max(0, type.getScale()));
            case FLOAT, REAL, DOUBLE -> QuiverTypes.FLOAT64;
            case CHAR, VARCHAR -> QuiverTypes.UTF8;
            case DATE -> QuiverTypes.DATE32;
            case TIMESTAMP -> QuiverTypes.TIMESTAMP;
            case NULL -> QuiverTypes.NULL;
            default -> throw new QuiverException(ErrorCode.NOT_SUPPORTED, "The SQL type " + type.getFullTypeString() + " is not supported");
        };
    }

    public static Field field(String name, RelDataType type) {
        return QuiverTypes.field(name, toArrow(type), type.isNullable());
    }

    /** A schema with the fields of {@code rowType} (its own field names). */
    public static Schema schema(RelDataType rowType) {
        List<Field> fields = new ArrayList<>();
        for (RelDataTypeField field : rowType.getFieldList()) {
            fields.add(field(field.getName(), field.getType()));
        }
        return new Schema(fields);
    }

    /**
     * The type both operands convert to so that equal values have equal representations (join keys,
     * hash partitioning): the wider integer, a decimal holding both, or DOUBLE.
     */
    public static ArrowType commonType(ArrowType left, ArrowType right) {
        if (left.equals(right)) {
            return left;
        }
        if (left instanceof ArrowType.Null) {
            return right;
        }
        if (right instanceof ArrowType.Null) {
            return left;
        }
        if (!QuiverTypes.isNumeric(left) || !QuiverTypes.isNumeric(right)) {
            throw new QuiverException(ErrorCode.TYPE_MISMATCH,
                    "Cannot compare " + QuiverTypes.sqlName(left) + " with " + QuiverTypes.sqlName(right));
        }
        if (left instanceof ArrowType.FloatingPoint || right instanceof ArrowType.FloatingPoint) {
            return new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
        }
        if (left instanceof ArrowType.Int l && right instanceof ArrowType.Int r) {
            return l.getBitWidth() >= r.getBitWidth() ? l : r;
        }
        int scale = Math.max(scale(left), scale(right));
        int integerDigits = Math.max(precision(left) - scale(left), precision(right) - scale(right));
        return QuiverTypes.decimal(Math.min(QuiverTypes.MAX_DECIMAL_PRECISION, integerDigits + scale), scale);
    }

    private static int scale(ArrowType type) {
        return type instanceof ArrowType.Decimal d ? d.getScale() : 0;
    }

    private static int precision(ArrowType type) {
        if (type instanceof ArrowType.Decimal d) {
            return d.getPrecision();
        }
        return ((ArrowType.Int) type).getBitWidth() <= 32 ? INT32_DIGITS : INT64_DIGITS;
    }
}
