package dev.quiver.sql.catalog;

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
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.sql.type.SqlTypeName;

/** Maps the Arrow types of {@link QuiverTypes} to Calcite SQL types, keeping each field's nullability. */
public final class ArrowToCalciteTypes {
    private ArrowToCalciteTypes() {}

    public static RelDataType rowType(RelDataTypeFactory typeFactory, String tableName, Schema schema) {
        List<String> names = new ArrayList<>();
        List<RelDataType> types = new ArrayList<>();
        for (Field field : schema.getFields()) {
            names.add(field.getName());
            RelDataType type = sqlType(typeFactory, tableName, field);
            types.add(typeFactory.createTypeWithNullability(type, field.isNullable()));
        }
        return typeFactory.createStructType(types, names);
    }

    private static RelDataType sqlType(RelDataTypeFactory typeFactory, String tableName, Field field) {
        RelDataType type = field.getChildren().isEmpty() ? sqlType(typeFactory, field.getType()) : nestedType(typeFactory, tableName, field);
        if (type == null) {
            throw new QuiverException(ErrorCode.NOT_SUPPORTED, String.format(
                    "Column '%s' of table '%s' has type %s, which SQL queries do not support",
                    field.getName(), tableName, QuiverTypes.sqlName(field.getType())));
        }
        return type;
    }

    /**
     * The SQL type of a list (ARRAY) or map (MAP) field, its elements' nullability kept, or of a
     * struct (ANY, see below). Queries can select such columns (and filter, sort, join on the
     * others); functions on them are not there yet.
     */
    private static RelDataType nestedType(RelDataTypeFactory typeFactory, String tableName, Field field) {
        ArrowType type = field.getType();
        if (type instanceof ArrowType.Map) {
            List<Field> entry = field.getChildren().get(0).getChildren();
            return typeFactory.createMapType(nullable(typeFactory, tableName, entry.get(0)), nullable(typeFactory, tableName, entry.get(1)));
        }
        if (type instanceof ArrowType.List) {
            return typeFactory.createArrayType(nullable(typeFactory, tableName, field.getChildren().get(0)), -1);
        }
        if (type instanceof ArrowType.Struct) {
            // not a ROW: Calcite's planner flattens ROW columns into their fields, and a struct column
            // is to come back as one value; an opaque type passes it through (selected, not compared)
            return typeFactory.createSqlType(SqlTypeName.ANY);
        }
        return null;
    }

    private static RelDataType nullable(RelDataTypeFactory typeFactory, String tableName, Field field) {
        return typeFactory.createTypeWithNullability(sqlType(typeFactory, tableName, field), field.isNullable());
    }

    /** The SQL type (NOT NULL) of an Arrow type, or null when SQL has none for it. */
    public static RelDataType sqlType(RelDataTypeFactory typeFactory, ArrowType type) {
        if (type instanceof ArrowType.Null) {
            return typeFactory.createSqlType(SqlTypeName.NULL);
        }
        if (type instanceof ArrowType.Int i) {
            return typeFactory.createSqlType(switch (i.getBitWidth()) {
                case 8 -> SqlTypeName.TINYINT;
                case 16 -> SqlTypeName.SMALLINT;
                case 32 -> SqlTypeName.INTEGER;
                default -> SqlTypeName.BIGINT;
            });
        }
        if (type instanceof ArrowType.Decimal d) {
            return typeFactory.createSqlType(SqlTypeName.DECIMAL, d.getPrecision(), d.getScale());
        }
        if (type instanceof ArrowType.FloatingPoint f) {
            return typeFactory.createSqlType(f.getPrecision() == FloatingPointPrecision.DOUBLE ? SqlTypeName.DOUBLE : SqlTypeName.REAL);
        }
        if (type instanceof ArrowType.Utf8 || type instanceof ArrowType.LargeUtf8) {
            return typeFactory.createSqlType(SqlTypeName.VARCHAR);
        }
        if (type instanceof ArrowType.Bool) {
            return typeFactory.createSqlType(SqlTypeName.BOOLEAN);
        }
        if (type instanceof ArrowType.Date) {
            return typeFactory.createSqlType(SqlTypeName.DATE);
        }
        if (type instanceof ArrowType.Timestamp timestamp) {
            int precision = switch (timestamp.getUnit()) {
                case SECOND -> 0;
                case MILLISECOND -> 3;
                case MICROSECOND -> 6;
                case NANOSECOND -> 9;
            };
            precision = Math.min(precision, typeFactory.getTypeSystem().getMaxPrecision(SqlTypeName.TIMESTAMP));
            return typeFactory.createSqlType(SqlTypeName.TIMESTAMP, precision);
        }
        return null;
    }
}
