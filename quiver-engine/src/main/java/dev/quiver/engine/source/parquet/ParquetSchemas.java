package dev.quiver.engine.source.parquet;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.source.parquet.ParquetColumn.ValueKind;
import dev.quiver.engine.types.QuiverTypes;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.DateLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.DecimalLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.IntLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimestampLogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;

/** Maps Parquet schemas to Quiver's Arrow types and back. */
final class ParquetSchemas {
    private ParquetSchemas() {}

    /** The columns of a file's schema; fails naming the file and column for one Quiver cannot read. */
    static List<ParquetColumn> columns(MessageType schema, String file) {
        List<ParquetColumn> columns = new ArrayList<>();
        for (int i = 0; i < schema.getFieldCount(); i++) {
            Type type = schema.getType(i);
            if (!type.isPrimitive() || type.isRepetition(Type.Repetition.REPEATED)) {
                throw unreadable(file, type.getName(), type.isPrimitive() ? "a repeated column" : "a nested group");
            }
            PrimitiveType primitive = type.asPrimitiveType();
            ValueKind kind = kind(primitive, file);
            ArrowType arrow = arrowType(primitive, kind);
            boolean nullable = !type.isRepetition(Type.Repetition.REQUIRED);
            columns.add(new ParquetColumn(QuiverTypes.field(type.getName(), arrow, nullable), type,
                    schema.getColumnDescription(new String[] {type.getName()}), kind));
        }
        return columns;
    }

    private static ValueKind kind(PrimitiveType type, String file) {
        LogicalTypeAnnotation logical = type.getLogicalTypeAnnotation();
        PrimitiveTypeName physical = type.getPrimitiveTypeName();
        if (logical instanceof DecimalLogicalTypeAnnotation decimal) {
            if (decimal.getPrecision() > QuiverTypes.MAX_DECIMAL_PRECISION) {
                throw unreadable(file, type.getName(), "DECIMAL(" + decimal.getPrecision() + "," + decimal.getScale() + "), wider than DECIMAL(38)");
            }
            return switch (physical) {
                case INT32 -> ValueKind.DECIMAL_INT32;
                case INT64 -> ValueKind.DECIMAL_INT64;
                case BINARY, FIXED_LEN_BYTE_ARRAY -> ValueKind.DECIMAL_BYTES;
                default -> throw unreadable(file, type.getName(), "DECIMAL stored as " + physical);
            };
        }
        switch (physical) {
            case BOOLEAN:
                return ValueKind.BOOLEAN;
            case INT32:
                if (logical == null) {
                    return ValueKind.INT32;
                }
                if (logical instanceof DateLogicalTypeAnnotation) {
                    return ValueKind.DATE;
                }
                if (logical instanceof IntLogicalTypeAnnotation ints) {
                    return ints.isSigned() ? ValueKind.INT32 : ValueKind.UINT32;
                }
                break;
            case INT64:
                if (logical == null) {
                    return ValueKind.INT64;
                }
                if (logical instanceof IntLogicalTypeAnnotation ints && ints.isSigned()) {
                    return ValueKind.INT64;
                }
                if (logical instanceof TimestampLogicalTypeAnnotation timestamp) {
                    return switch (timestamp.getUnit()) {
                        case MILLIS -> ValueKind.TIMESTAMP_MILLIS;
                        case MICROS -> ValueKind.TIMESTAMP_MICROS;
                        case NANOS -> ValueKind.TIMESTAMP_NANOS;
                    };
                }
                break;
            case FLOAT:
                return ValueKind.FLOAT;
            case DOUBLE:
                return ValueKind.DOUBLE;
            case BINARY:
                // Binary without an annotation is read as text too: older writers (Impala, early Spark) omit it.
                if (logical == null || logical instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation
                        || logical instanceof LogicalTypeAnnotation.EnumLogicalTypeAnnotation
                        || logical instanceof LogicalTypeAnnotation.JsonLogicalTypeAnnotation) {
                    return ValueKind.STRING;
                }
                break;
            default:
                break;
        }
        throw unreadable(file, type.getName(), describe(type));
    }

    private static String describe(PrimitiveType type) {
        LogicalTypeAnnotation logical = type.getLogicalTypeAnnotation();
        return type.getPrimitiveTypeName() + (logical == null ? "" : " (" + logical + ")");
    }

    private static ArrowType arrowType(PrimitiveType type, ValueKind kind) {
        return switch (kind) {
            case BOOLEAN -> QuiverTypes.BOOLEAN;
            case INT32 -> QuiverTypes.INT32;
            case UINT32, INT64 -> QuiverTypes.INT64;
            case FLOAT, DOUBLE -> QuiverTypes.FLOAT64;
            case DATE -> QuiverTypes.DATE32;
            case DECIMAL_INT32, DECIMAL_INT64, DECIMAL_BYTES -> {
                DecimalLogicalTypeAnnotation decimal = (DecimalLogicalTypeAnnotation) type.getLogicalTypeAnnotation();
                yield QuiverTypes.decimal(decimal.getPrecision(), decimal.getScale());
            }
            case STRING -> QuiverTypes.UTF8;
            case TIMESTAMP_MILLIS, TIMESTAMP_MICROS, TIMESTAMP_NANOS -> QuiverTypes.TIMESTAMP;
            case NESTED -> throw new IllegalArgumentException("a nested column has no primitive type");
        };
    }

    private static QuiverException unreadable(String file, String column, String what) {
        return new QuiverException(ErrorCode.NOT_SUPPORTED,
                "cannot read column '" + column + "' of Parquet file " + file + ": its type " + what + " is not supported");
    }

    /** The Parquet schema Quiver writes for an Arrow schema of Quiver types. */
    static MessageType toParquet(Schema schema) {
        Types.MessageTypeBuilder message = Types.buildMessage();
        for (Field field : schema.getFields()) {
            Type.Repetition repetition = field.isNullable() ? Type.Repetition.OPTIONAL : Type.Repetition.REQUIRED;
            message.addField(primitive(field, repetition));
        }
        return message.named("schema");
    }

    private static PrimitiveType primitive(Field field, Type.Repetition repetition) {
        ArrowType type = field.getType();
        String name = field.getName();
        if (type instanceof ArrowType.Bool) {
            return Types.primitive(PrimitiveTypeName.BOOLEAN, repetition).named(name);
        }
        if (type instanceof ArrowType.Int ints && ints.getIsSigned() && (ints.getBitWidth() == 32 || ints.getBitWidth() == 64)) {
            if (ints.getBitWidth() == 64) {
                return Types.primitive(PrimitiveTypeName.INT64, repetition).named(name);
            }
            return Types.primitive(PrimitiveTypeName.INT32, repetition).named(name);
        }
        if (type instanceof ArrowType.FloatingPoint fp && fp.getPrecision() == FloatingPointPrecision.DOUBLE) {
            return Types.primitive(PrimitiveTypeName.DOUBLE, repetition).named(name);
        }
        if (type instanceof ArrowType.Decimal decimal) {
            LogicalTypeAnnotation annotation = LogicalTypeAnnotation.decimalType(decimal.getScale(), decimal.getPrecision());
            if (decimal.getPrecision() <= 9) {
                return Types.primitive(PrimitiveTypeName.INT32, repetition).as(annotation).named(name);
            }
            if (decimal.getPrecision() <= 18) {
                return Types.primitive(PrimitiveTypeName.INT64, repetition).as(annotation).named(name);
            }
            return Types.primitive(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY, repetition)
                    .length(decimalBytes(decimal.getPrecision())).as(annotation).named(name);
        }
        if (type instanceof ArrowType.Utf8) {
            return Types.primitive(PrimitiveTypeName.BINARY, repetition).as(LogicalTypeAnnotation.stringType()).named(name);
        }
        if (type instanceof ArrowType.Date date && date.getUnit() == DateUnit.DAY) {
            return Types.primitive(PrimitiveTypeName.INT32, repetition).as(LogicalTypeAnnotation.dateType()).named(name);
        }
        if (type instanceof ArrowType.Timestamp timestamp && timestamp.getUnit() == TimeUnit.MICROSECOND) {
            return Types.primitive(PrimitiveTypeName.INT64, repetition)
                    .as(LogicalTypeAnnotation.timestampType(timestamp.getTimezone() != null, LogicalTypeAnnotation.TimeUnit.MICROS))
                    .named(name);
        }
        throw new QuiverException(ErrorCode.NOT_SUPPORTED,
                "cannot write column '" + name + "' of type " + QuiverTypes.sqlName(type) + " to Parquet");
    }

    /** The fewest bytes that hold any unscaled value of a decimal of this precision, sign included. */
    static int decimalBytes(int precision) {
        return (int) Math.ceil((precision * Math.log(10) / Math.log(2) + 1) / 8);
    }
}
