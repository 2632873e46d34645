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
 */
final class StringKeyColumn extends KeyColumn {
    private byte[] arena = new byte[0];
    private int[] offsets = new int[1];
    private int groups;
    private final StringBatch batch = new StringBatch();

    @Override
    protected void loadValues(FieldVector vector, int rows) {
        batch.load(vector, rows);
    }

    @Override
    void hash(int rows, long[] hashes) {
        int[] starts = batch.offsets;
        byte[] data = batch.data;
        for (int i = 0; i < rows; i++) {
            long value = batchNull(i) ? Hashing.NULL_HASH : Hashing.hashBytes(data, starts[i], starts[i + 1] - starts[i]);
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
        return isNull || Arrays.equals(arena, offsets[group], offsets[group + 1],
                batch.data, batch.offsets[row], batch.offsets[row + 1]);
    }

    @Override
    protected void growValues(int capacity) {
        if (capacity == 0) {
            arena = new byte[0];
            offsets = new int[1];
            groups = 0;
            return;
        }
        offsets = Arrays.copyOf(offsets, capacity + 1);
    }

    @Override
    int bytesPerGroup() {
        return 5;
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
