package dev.quiver.engine.source.parquet;

import dev.quiver.engine.batch.VectorValues;
import dev.quiver.engine.source.parquet.ParquetColumn.ValueKind;
import java.nio.ByteBuffer;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.PrimitiveType;

/**
 * Decodes the next {@code count} values of a Parquet column reader into an Arrow vector. The
 * column reader resolves pages, levels and dictionaries; this loop writes primitives straight
 * into the vector's buffers (strings through the reader's {@link Binary} views, no copies).
 */
final class ColumnDecoder {
    private ColumnDecoder() {}

    static void decode(ValueKind kind, ColumnReader reader, int maxDefinition, FieldVector vector, int count) {
        switch (kind) {
            case INT64 -> decodeLong((BigIntVector) vector, reader, maxDefinition, count);
            case INT32 -> decodeInt((IntVector) vector, reader, maxDefinition, count);
            case DATE -> decodeDate((DateDayVector) vector, reader, maxDefinition, count);
            case UINT32 -> decodeUnsignedInt((BigIntVector) vector, reader, maxDefinition, count);
            case DOUBLE -> decodeDouble((Float8Vector) vector, reader, maxDefinition, count);
            case FLOAT -> decodeFloat((Float8Vector) vector, reader, maxDefinition, count);
            case BOOLEAN -> decodeBoolean((BitVector) vector, reader, maxDefinition, count);
            case DECIMAL_INT32, DECIMAL_INT64 -> decodeDecimal((DecimalVector) vector, reader, maxDefinition, count, kind == ValueKind.DECIMAL_INT32);
            case DECIMAL_BYTES -> decodeDecimalBytes((DecimalVector) vector, reader, maxDefinition, count);
            case STRING -> decodeString((VarCharVector) vector, reader, maxDefinition, count);
            case TIMESTAMP_MILLIS, TIMESTAMP_MICROS, TIMESTAMP_NANOS -> decodeTimestamp((TimeStampVector) vector, reader, maxDefinition, count, kind);
            default -> decodeConverted(kind, vector, reader, maxDefinition, count);
        }
        vector.setValueCount(count);
    }

    /** The kinds Quiver has no type for (unsigned 64-bit, wide decimals, INT96, times, UUIDs, blobs): one value at a time. */
    private static void decodeConverted(ValueKind kind, FieldVector vector, ColumnReader reader, int maxDefinition, int count) {
        PrimitiveType type = reader.getDescriptor().getPrimitiveType();
        vector.setInitialCapacity(count);
        vector.allocateNew();
        for (int i = 0; i < count; i++) {
            if (reader.getCurrentDefinitionLevel() == maxDefinition) {
                VectorValues.set(vector, i, ParquetValues.convert(kind, type, raw(reader, type)));
            } else {
                VectorValues.setNull(vector, i);
            }
            reader.consume();
        }
    }

    /** The current value as its physical Java type. */
    static Object raw(ColumnReader reader, PrimitiveType type) {
        return switch (type.getPrimitiveTypeName()) {
            case BOOLEAN -> reader.getBoolean();
            case INT32 -> reader.getInteger();
            case INT64 -> reader.getLong();
            case FLOAT -> reader.getFloat();
            case DOUBLE -> reader.getDouble();
            case INT96, BINARY, FIXED_LEN_BYTE_ARRAY -> reader.getBinary();
        };
    }

    private static void decodeLong(BigIntVector vector, ColumnReader reader, int maxDefinition, int count) {
        vector.allocateNew(count);
        for (int i = 0; i < count; i++) {
            if (reader.getCurrentDefinitionLevel() == maxDefinition) {
                vector.set(i, reader.getLong());
            } else {
                vector.setNull(i);
            }
            reader.consume();
        }
    }

    private static void decodeInt(IntVector vector, ColumnReader reader, int maxDefinition, int count) {
        vector.allocateNew(count);
        for (int i = 0; i < count; i++) {
            if (reader.getCurrentDefinitionLevel() == maxDefinition) {
                vector.set(i, reader.getInteger());
            } else {
                vector.setNull(i);
            }
            reader.consume();
        }
    }

    private static void decodeDate(DateDayVector vector, ColumnReader reader, int maxDefinition, int count) {
        vector.allocateNew(count);
        for (int i = 0; i < count; i++) {
            if (reader.getCurrentDefinitionLevel() == maxDefinition) {
                vector.set(i, reader.getInteger());
            } else {
                vector.setNull(i);
            }
            reader.consume();
        }
    }

    private static void decodeUnsignedInt(BigIntVector vector, ColumnReader reader, int maxDefinition, int count) {
        vector.allocateNew(count);
        for (int i = 0; i < count; i++) {
            if (reader.getCurrentDefinitionLevel() == maxDefinition) {
                vector.set(i, Integer.toUnsignedLong(reader.getInteger()));
            } else {
                vector.setNull(i);
            }
            reader.consume();
        }
    }

    private static void decodeDouble(Float8Vector vector, ColumnReader reader, int maxDefinition, int count) {
        vector.allocateNew(count);
        for (int i = 0; i < count; i++) {
            if (reader.getCurrentDefinitionLevel() == maxDefinition) {
                vector.set(i, reader.getDouble());
            } else {
                vector.setNull(i);
            }
            reader.consume();
        }
    }

    private static void decodeFloat(Float8Vector vector, ColumnReader reader, int maxDefinition, int count) {
        vector.allocateNew(count);
        for (int i = 0; i < count; i++) {
            if (reader.getCurrentDefinitionLevel() == maxDefinition) {
                vector.set(i, reader.getFloat());
            } else {
                vector.setNull(i);
            }
            reader.consume();
        }
    }

    private static void decodeBoolean(BitVector vector, ColumnReader reader, int maxDefinition, int count) {
        vector.allocateNew(count);
        for (int i = 0; i < count; i++) {
            if (reader.getCurrentDefinitionLevel() == maxDefinition) {
                vector.set(i, reader.getBoolean() ? 1 : 0);
            } else {
                vector.setNull(i);
            }
            reader.consume();
        }
    }

    private static void decodeDecimal(DecimalVector vector, ColumnReader reader, int maxDefinition, int count, boolean int32) {
        vector.allocateNew(count);
        for (int i = 0; i < count; i++) {
            if (reader.getCurrentDefinitionLevel() == maxDefinition) {
                vector.set(i, int32 ? reader.getInteger() : reader.getLong());
            } else {
                vector.setNull(i);
            }
            reader.consume();
        }
    }

    private static void decodeDecimalBytes(DecimalVector vector, ColumnReader reader, int maxDefinition, int count) {
        vector.allocateNew(count);
        for (int i = 0; i < count; i++) {
            if (reader.getCurrentDefinitionLevel() == maxDefinition) {
                vector.setBigEndian(i, reader.getBinary().getBytes());
            } else {
                vector.setNull(i);
            }
            reader.consume();
        }
    }

    private static void decodeString(VarCharVector vector, ColumnReader reader, int maxDefinition, int count) {
        vector.allocateNew(count * 16L, count);
        for (int i = 0; i < count; i++) {
            if (reader.getCurrentDefinitionLevel() == maxDefinition) {
                Binary value = reader.getBinary();
                ByteBuffer bytes = value.toByteBuffer();
                vector.setSafe(i, bytes, bytes.position(), value.length());
            } else {
                vector.setNull(i);
            }
            reader.consume();
        }
    }

    private static void decodeTimestamp(TimeStampVector vector, ColumnReader reader, int maxDefinition, int count, ValueKind kind) {
        vector.allocateNew(count);
        for (int i = 0; i < count; i++) {
            if (reader.getCurrentDefinitionLevel() == maxDefinition) {
                long value = reader.getLong();
                vector.set(i, switch (kind) {
                    case TIMESTAMP_MILLIS -> value * 1000L;
                    case TIMESTAMP_NANOS -> Math.floorDiv(value, 1000L);
                    default -> value;
                });
            } else {
                vector.setNull(i);
            }
            reader.consume();
        }
    }
}
