package dev.quiver.engine.operator.aggregate;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Bulk copies between Arrow vectors and the primitive arrays that the hash table and accumulators
 * work on. Each method is one type-specialised loop over a batch, so the per-row loops of the
 * operator run over plain arrays.
 */
final class Columns {
    private Columns() {}

    /** Copies rows {@code [0, rows)} of a vector of a long-held kind into {@code out}; NULL slots get arbitrary values. */
    static void loadLongs(ColumnKind kind, FieldVector vector, int rows, long[] out) {
        ArrowBuf data = vector.getDataBuffer();
        switch (kind) {
            case BOOLEAN -> {
                for (int i = 0; i < rows; i++) {
                    out[i] = BitVectorHelper.get(data, i);
                }
            }
            case INT32, DATE -> {
                long address = checkedAddress(data, rows, 4);
                for (int i = 0; i < rows; i++) {
                    out[i] = MemoryUtil.getInt(address + (long) i * 4);
                }
            }
            case INT64, TIMESTAMP -> {
                long address = checkedAddress(data, rows, 8);
                for (int i = 0; i < rows; i++) {
                    out[i] = MemoryUtil.getLong(address + (long) i * 8);
                }
            }
            default -> throw new IllegalArgumentException("not a long kind: " + kind);
        }
    }

    static void loadDoubles(FieldVector vector, int rows, double[] out) {
        ArrowBuf data = vector.getDataBuffer();
        for (int i = 0; i < rows; i++) {
            out[i] = data.getDouble((long) i * 8);
        }
    }

    /** Copies 128-bit decimals (little-endian two's complement) as low and high words. */
    static void loadDecimals(FieldVector vector, int rows, long[] low, long[] high) {
        long address = checkedAddress(vector.getDataBuffer(), rows, 16);
        for (int i = 0; i < rows; i++) {
            low[i] = MemoryUtil.getLong(address + (long) i * 16);
            high[i] = MemoryUtil.getLong(address + (long) i * 16 + 8);
        }
    }

    /**
     * The address of {@code data} after checking it holds {@code rows} values of {@code width} bytes:
     * the load loops then read memory directly, without ArrowBuf's check on every access.
     */
    static long checkedAddress(ArrowBuf data, int rows, int width) {
        if ((long) rows * width > data.capacity()) {
            throw new IndexOutOfBoundsException(rows + " values of " + width + " bytes in a buffer of " + data.capacity() + " bytes");
        }
        return data.memoryAddress();
    }

    /**
     * The smallest ({@code max} false) or largest value of rows {@code [0, rows)} of an INT32, DATE,
     * INT64 or TIMESTAMP vector without NULLs, read in place; {@code start} when it is smaller
     * (larger).
     */
    static long extremeLong(ColumnKind kind, FieldVector vector, int rows, boolean max, long start) {
        ArrowBuf data = vector.getDataBuffer();
        long best = start;
        if (kind == ColumnKind.INT32 || kind == ColumnKind.DATE) {
            long address = checkedAddress(data, rows, 4);
            if (max) {
                for (int i = 0; i < rows; i++) {
                    best = Math.max(best, MemoryUtil.getInt(address + (long) i * 4));
                }
            } else {
                for (int i = 0; i < rows; i++) {
                    best = Math.min(best, MemoryUtil.getInt(address + (long) i * 4));
                }
            }
            return best;
        }
        if (kind != ColumnKind.INT64 && kind != ColumnKind.TIMESTAMP) {
            throw new IllegalArgumentException("not a 32- or 64-bit integer kind: " + kind);
        }
        return extremeStrided(data, rows, 8, max, best);
    }

    /**
     * The smallest or largest low word of rows {@code [0, rows)} of a DECIMAL vector without NULLs
     * whose values fit a {@code long} (precision up to 18, so the low word is the signed value).
     */
    static long extremeDecimalLow(FieldVector vector, int rows, boolean max, long start) {
        return extremeStrided(vector.getDataBuffer(), rows, 16, max, start);
    }

    private static long extremeStrided(ArrowBuf data, int rows, int width, boolean max, long start) {
        long address = checkedAddress(data, rows, width);
        long best = start;
        if (max) {
            for (int i = 0; i < rows; i++) {
                best = Math.max(best, MemoryUtil.getLong(address + (long) i * width));
            }
        } else {
            for (int i = 0; i < rows; i++) {
                best = Math.min(best, MemoryUtil.getLong(address + (long) i * width));
            }
        }
        return best;
    }

    /** Copies the low words of 128-bit decimals known to fit a {@code long} (precision up to 18). */
    static void loadDecimalLows(FieldVector vector, int rows, long[] low) {
        long address = checkedAddress(vector.getDataBuffer(), rows, 16);
        for (int i = 0; i < rows; i++) {
            low[i] = MemoryUtil.getLong(address + (long) i * 16);
        }
    }

    /** Fills {@code out[0, rows)} with the vector's null flags; returns false (and leaves out untouched) if it has none. */
    static boolean loadNulls(FieldVector vector, int rows, boolean[] out) {
        if (vector.getNullCount() == 0) {
            return false;
        }
        ArrowBuf validity = vector.getValidityBuffer();
        for (int i = 0; i < rows; i++) {
            out[i] = BitVectorHelper.get(validity, i) == 0;
        }
        return true;
    }

    /** A new vector for {@code count} values, all NULL until set. */
    static FieldVector newVector(Field field, int count, long dataBytes, BufferAllocator allocator) {
        FieldVector vector = field.createVector(allocator);
        try {
            if (vector instanceof BaseVariableWidthVector variable) {
                variable.allocateNew(Math.max(dataBytes, 1), Math.max(count, 1));
            } else {
                vector.setInitialCapacity(Math.max(count, 1));
                vector.allocateNew();
            }
            return vector;
        } catch (RuntimeException e) {
            vector.close();
            throw e;
        }
    }

    /**
     * Writes {@code values[from, from + count)} to rows {@code [0, count)}; group {@code g} is NULL
     * where {@code flags[g] == nullFlag} ({@code flags} null: no NULLs).
     */
    static void writeLongs(ColumnKind kind, FieldVector vector, long[] values, boolean[] flags, boolean nullFlag, int from, int count) {
        if (kind == ColumnKind.INT64 || kind == ColumnKind.TIMESTAMP) {
            // the common case (counts, BIGINT keys): one loop over the buffers, no switch per value
            ArrowBuf data = vector.getDataBuffer();
            ArrowBuf validity = vector.getValidityBuffer();
            long address = checkedAddress(data, count, 8);
            for (int i = 0; i < count; i++) {
                int g = from + i;
                if (flags != null && flags[g] == nullFlag) {
                    continue;
                }
                MemoryUtil.putLong(address + (long) i * 8, values[g]);
                BitVectorHelper.setBit(validity, i);
            }
            vector.setValueCount(count);
            return;
        }
        for (int i = 0; i < count; i++) {
            int g = from + i;
            if (flags != null && flags[g] == nullFlag) {
                continue;
            }
            long value = values[g];
            switch (kind) {
                case BOOLEAN -> ((BitVector) vector).set(i, (int) value);
                case INT32 -> ((IntVector) vector).set(i, (int) value);
                case DATE -> ((DateDayVector) vector).set(i, (int) value);
                default -> throw new IllegalArgumentException("not a long kind: " + kind);
            }
        }
        vector.setValueCount(count);
    }

    static void writeDoubles(FieldVector vector, double[] values, boolean[] flags, boolean nullFlag, int from, int count) {
        Float8Vector doubles = (Float8Vector) vector;
        for (int i = 0; i < count; i++) {
            if (flags == null || flags[from + i] != nullFlag) {
                doubles.set(i, values[from + i]);
            }
        }
        vector.setValueCount(count);
    }

    /** Writes one 128-bit decimal; the caller has checked it fits the vector's precision. */
    static void setDecimal(FieldVector vector, int index, long low, long high) {
        ArrowBuf data = vector.getDataBuffer();
        data.setLong((long) index * 16, low);
        data.setLong((long) index * 16 + 8, high);
        BitVectorHelper.setBit(vector.getValidityBuffer(), index);
    }

    static void setString(FieldVector vector, int index, byte[] bytes, int start, int length) {
        ((VarCharVector) vector).setSafe(index, bytes, start, length);
    }
}
