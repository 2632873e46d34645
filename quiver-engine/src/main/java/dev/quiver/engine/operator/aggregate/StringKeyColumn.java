package dev.quiver.engine.operator.aggregate;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.util.Arrays;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * VARCHAR keys: the bytes of every group's key in one arena, group {@code g} at
 * {@code [offsets[g], offsets[g + 1])}. The batch's bytes are copied into a scratch array once per
 * batch so that hashing and comparing run on {@code byte[]}.
 *
 * <p>A key of at most 7 bytes is also packed into one {@code long} (its bytes and its length), so
 * that the flags and codes analytical queries group by hash and compare as one number. A longer
 * key packs to {@link #LONG_KEY}, which no packed short key equals (their top byte is the length).
 */
final class StringKeyColumn extends KeyColumn {
    private static final long LONG_KEY = -1L;
    private static final int MAX_PACKED = 7;
    private byte[] arena = new byte[0];
    private int[] offsets = new int[1];
    private long[] packedKeys = new long[0];
    private int groups;
    private final StringBatch batch = new StringBatch();
    private long[] packedRows = new long[0];

    @Override
    protected void loadValues(FieldVector vector, int rows) {
        batch.load(vector, rows);
        if (packedRows.length < rows) {
            packedRows = new long[rows];
        }
        int[] starts = batch.offsets;
        for (int i = 0; i < rows; i++) {
            packedRows[i] = pack(batch.data, starts[i], starts[i + 1] - starts[i]);
        }
    }

    /** The bytes and the length of a key of at most {@link #MAX_PACKED} bytes as one value; {@link #LONG_KEY} for a longer one. */
    private static long pack(byte[] data, int start, int length) {
        if (length > MAX_PACKED) {
            return LONG_KEY;
        }
        long packed = (long) length << 56;
        for (int b = 0; b < length; b++) {
            packed |= (data[start + b] & 0xFFL) << (b << 3);
        }
        return packed;
    }

    @Override
    void hash(int rows, long[] hashes) {
        int[] starts = batch.offsets;
        byte[] data = batch.data;
        long[] packed = packedRows;
        for (int i = 0; i < rows; i++) {
            long value;
            if (batchNull(i)) {
                value = Hashing.NULL_HASH;
            } else if (packed[i] != LONG_KEY) {
                value = Hashing.finish(packed[i]);
            } else {
                value = Hashing.hashBytes(data, starts[i], starts[i + 1] - starts[i]);
            }
            hashes[i] = Hashing.combine(hashes[i], value);
        }
    }

    @Override
    protected void appendValues(int[] rows, int count, int firstGroup) {
        if (firstGroup != groups) {
            throw new IllegalStateException("string keys must be appended in group order: " + firstGroup + " != " + groups);
        }
        long needed = offsets[groups];
        for (int i = 0; i < count; i++) {
            needed += batch.length(rows[i]);
        }
        if (needed > Integer.MAX_VALUE - 16) {
            throw new QuiverException(ErrorCode.NOT_SUPPORTED,
                    "group keys of one aggregation partition exceed 2 GiB of strings");
        }
        if (needed > arena.length) {
            arena = Arrays.copyOf(arena, (int) Math.min(Integer.MAX_VALUE - 16, Math.max(needed, 2L * arena.length)));
        }
        int end = offsets[groups];
        for (int i = 0; i < count; i++) {
            int row = rows[i];
            int length = batchNull(row) ? 0 : batch.length(row);
            System.arraycopy(batch.data, batch.offsets[row], arena, end, length);
            end += length;
            offsets[firstGroup + i + 1] = end;
            packedKeys[firstGroup + i] = batchNull(row) ? 0 : packedRows[row];
        }
        groups += count;
    }

    @Override
    void verify(int[] rows, int[] groups, int count, boolean[] mismatch) {
        for (int i = 0; i < count; i++) {
            if (!matches(groups[i], rows[i])) {
                mismatch[i] = true;
            }
        }
    }

    @Override
    boolean matches(int group, int row) {
        boolean isNull = batchNull(row);
        if (groupNulls[group] != isNull) {
            return false;
        }
        if (isNull) {
            return true;
        }
        long packed = packedRows[row];
        if (packed != LONG_KEY || packedKeys[group] != LONG_KEY) {
            return packed == packedKeys[group];
        }
        return Arrays.equals(arena, offsets[group], offsets[group + 1], batch.data, batch.offsets[row], batch.offsets[row + 1]);
    }

    @Override
    protected void growValues(int capacity) {
        if (capacity == 0) {
            arena = new byte[0];
            offsets = new int[1];
            packedKeys = new long[0];
            groups = 0;
            return;
        }
        offsets = Arrays.copyOf(offsets, capacity + 1);
        packedKeys = Arrays.copyOf(packedKeys, capacity);
    }

    @Override
    int bytesPerGroup() {
        return 13;
    }

    @Override
    long variableBytes() {
        return arena.length;
    }

    @Override
    FieldVector output(Field field, int from, int count, BufferAllocator allocator) {
        FieldVector vector = Columns.newVector(field, count, offsets[from + count] - offsets[from], allocator);
        try {
            for (int i = 0; i < count; i++) {
                int g = from + i;
                if (!groupNulls[g]) {
                    Columns.setString(vector, i, arena, offsets[g], offsets[g + 1] - offsets[g]);
                }
            }
            vector.setValueCount(count);
            return vector;
        } catch (RuntimeException e) {
            vector.close();
            throw e;
        }
    }

    /** One batch's VARCHAR column copied to heap arrays. */
    static final class StringBatch {
        byte[] data = new byte[0];
        int[] offsets = new int[1];

        void load(FieldVector vector, int rows) {
            if (offsets.length < rows + 1) {
                offsets = new int[rows + 1];
            }
            ArrowBuf offsetBuffer = vector.getOffsetBuffer();
            int first = rows == 0 ? 0 : offsetBuffer.getInt(0);
            for (int i = 0; i <= rows; i++) {
                offsets[i] = (rows == 0 ? 0 : offsetBuffer.getInt((long) i * 4)) - first;
            }
            int bytes = offsets[rows];
            if (data.length < bytes) {
                data = new byte[Math.max(bytes, data.length * 2)];
            }
            if (bytes > 0) {
                vector.getDataBuffer().getBytes(first, data, 0, bytes);
            }
        }

        int length(int row) {
            return offsets[row + 1] - offsets[row];
        }
    }
}
