package dev.quiver.sql.physical;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.types.QuiverTypes;
import java.util.ArrayList;
import java.util.List;
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
            // a nested column passes through plans as it is; its children live in its Field (see field)
            case ARRAY, MULTISET -> ArrowType.List.INSTANCE;
            case MAP -> new ArrowType.Map(false);
            // a struct column is ANY to Calcite (ArrowToCalciteTypes), which would flatten a ROW
            case ROW, ANY -> ArrowType.Struct.INSTANCE;
            default -> throw new QuiverException(ErrorCode.NOT_SUPPORTED, "The SQL type " + type.getFullTypeString() + " is not supported");
        };
    }

    public static Field field(String name, RelDataType type) {
        return switch (type.getSqlTypeName()) {
            case ARRAY, MULTISET -> QuiverTypes.list(name, field(QuiverTypes.LIST_ELEMENT, type.getComponentType()), type.isNullable());
            case MAP -> QuiverTypes.map(name, field(QuiverTypes.MAP_KEY, type.getKeyType()), field(QuiverTypes.MAP_VALUE, type.getValueType()),
                    type.isNullable());
            case ROW -> QuiverTypes.struct(name, type.getFieldList().stream().map(f -> field(f.getName(), f.getType())).toList(), type.isNullable());
            default -> QuiverTypes.field(name, toArrow(type), type.isNullable());
        };
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
        return QuiverTypes.commonType(left, right);
    }
}
