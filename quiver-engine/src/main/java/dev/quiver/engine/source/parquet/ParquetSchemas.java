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
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;

/** Maps Parquet schemas to Quiver's Arrow fields and back. */
final class ParquetSchemas {
    private ParquetSchemas() {}

    /**
     * The top-level columns of a file's schema. Every column opens: flat ones as the types of
     * {@link ParquetTypes}, groups and repeated fields as Arrow list, map and struct columns
     * ({@link ParquetNestedTypes}).
     */
    static List<ParquetColumn> columns(MessageType schema, String file) {
        List<ParquetColumn> columns = new ArrayList<>();
        for (int i = 0; i < schema.getFieldCount(); i++) {
            Type type = schema.getType(i);
            if (!type.isPrimitive() || type.isRepetition(Type.Repetition.REPEATED)) {
                List<ColumnDescriptor> leaves = schema.getColumns().stream().filter(leaf -> leaf.getPath()[0].equals(type.getName())).toList();
                columns.add(new ParquetColumn(ParquetNestedTypes.field(type), type, leaves, ValueKind.NESTED));
                continue;
            }
            PrimitiveType primitive = type.asPrimitiveType();
            ValueKind kind = ParquetTypes.kind(primitive);
            boolean nullable = !type.isRepetition(Type.Repetition.REQUIRED);
            columns.add(new ParquetColumn(QuiverTypes.field(type.getName(), ParquetTypes.arrowType(primitive, kind), nullable), type,
                    schema.getColumnDescription(new String[] {type.getName()}), kind));
        }
        return columns;
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
