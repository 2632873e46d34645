package dev.quiver.engine.expr.kernel;

import dev.quiver.engine.types.QuiverTypes;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.NullVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.util.TransferPair;

/** Allocating result vectors and filling them with constants. */
public final class Vectors {
    private Vectors() {}

    /**
     * A new vector of {@code type} with room for {@code rows} values, all initially NULL (validity
     * zeroed) and value count not yet set. Variable-width vectors get {@code bytes} of data room.
     */
    public static FieldVector allocate(String name, ArrowType type, int rows, long bytes, BufferAllocator allocator) {
        if (type instanceof ArrowType.Null) {
            return new NullVector(name, rows);
        }
        FieldVector vector = QuiverTypes.field(name, type, true).createVector(allocator);
        try {
            if (vector instanceof BaseVariableWidthVector variable) {
                variable.allocateNew(Math.max(bytes, 1), Math.max(rows, 1));
            } else if (vector instanceof BaseFixedWidthVector fixed) {
                fixed.allocateNew(Math.max(rows, 1));
            } else {
                vector.setInitialCapacity(Math.max(rows, 1));
                vector.allocateNew();
            }
            return vector;
        } catch (RuntimeException e) {
            vector.close();
            throw e;
        }
    }

    public static FieldVector allocate(ArrowType type, int rows, BufferAllocator allocator) {
        return allocate("expr", type, rows, 0, allocator);
    }

    /** {@code rows} copies of {@code value} (a Java value of {@code type}, or null for NULL). */
    public static FieldVector constant(ArrowType type, Object value, int rows, BufferAllocator allocator) {
        byte[] bytes = value instanceof String s ? s.getBytes(StandardCharsets.UTF_8) : null;
        long dataBytes = bytes == null ? 0 : (long) bytes.length * rows;
        FieldVector vector = allocate("literal", type, rows, dataBytes, allocator);
        try {
            if (value != null) {
                fill(vector, value, bytes, rows);
            }
            vector.setValueCount(rows);
            return vector;
        } catch (RuntimeException e) {
            vector.close();
            throw e;
        }
    }

    private static void fill(FieldVector vector, Object value, byte[] bytes, int rows) {
        if (vector instanceof VarCharVector v) {
            for (int i = 0; i < rows; i++) {
                v.setSafe(i, bytes);
            }
            return;
        }
        ArrowBuf data = vector.getDataBuffer();
        if (vector instanceof BitVector) {
            if ((Boolean) value) {
                setAllBits(data, rows);
            }
        } else if (vector instanceof IntVector || vector instanceof DateDayVector) {
            int v = ((Number) value).intValue();
            for (int i = 0; i < rows; i++) {
                data.setInt((long) i * 4, v);
            }
        } else if (vector instanceof BigIntVector || vector instanceof TimeStampVector) {
            long v = ((Number) value).longValue();
            for (int i = 0; i < rows; i++) {
                data.setLong((long) i * 8, v);
            }
        } else if (vector instanceof Float8Vector) {
            double v = ((Number) value).doubleValue();
            for (int i = 0; i < rows; i++) {
                data.setDouble((long) i * 8, v);
            }
        } else if (vector instanceof DecimalVector v) {
            BigInteger unscaled = toDecimal(value, v.getScale()).unscaledValue();
            long low = unscaled.longValue();
            long high = unscaled.shiftRight(64).longValue();
            for (int i = 0; i < rows; i++) {
                data.setLong((long) i * 16, low);
                data.setLong((long) i * 16 + 8, high);
            }
        } else {
            throw new IllegalArgumentException("unsupported literal vector " + vector.getField());
        }
        setAllBits(vector.getValidityBuffer(), rows);
    }

    /** {@code value} (a BigDecimal or any number) at {@code scale}, rounding HALF_UP. */
    public static BigDecimal toDecimal(Object value, int scale) {
        BigDecimal decimal = value instanceof BigDecimal d ? d : new BigDecimal(value.toString());
        return decimal.setScale(scale, RoundingMode.HALF_UP);
    }

    /** Sets bits {@code [0, count)} of a bitmap. */
    public static void setAllBits(ArrowBuf bits, int count) {
        int fullBytes = count >> 3;
        bits.setOne(0, fullBytes);
        for (int i = fullBytes << 3; i < count; i++) {
            bits.setByte(i >> 3, bits.getByte(i >> 3) | (1 << (i & 7)));
        }
    }

    /** Row {@code row} of {@code vector} as a new one-row vector; {@code vector} stays intact. */
    public static FieldVector slice(FieldVector vector, int row, BufferAllocator allocator) {
        TransferPair pair = vector.getTransferPair(allocator);
        pair.splitAndTransfer(row, 1);
        return (FieldVector) pair.getTo();
    }

    /** The first {@code rows} values of {@code vector} as a new vector sharing its buffers; {@code vector} stays intact. */
    public static FieldVector share(FieldVector vector, int rows, BufferAllocator allocator) {
        if (rows == 0) {
            FieldVector empty = vector.getField().createVector(allocator);
            empty.allocateNew();
            empty.setValueCount(0);
            return empty;
        }
        TransferPair pair = vector.getTransferPair(allocator);
        pair.splitAndTransfer(0, rows);
        return (FieldVector) pair.getTo();
    }
}
