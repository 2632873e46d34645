package dev.quiver.engine.operator.aggregate;

import java.util.Arrays;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.Field;

/** Keys of the kinds held as {@code long}: BOOLEAN, INTEGER, BIGINT, DATE, TIMESTAMP. */
final class LongKeyColumn extends KeyColumn {
    private final ColumnKind kind;
    private long[] values = new long[0];
    private long[] batch = new long[0];

    LongKeyColumn(ColumnKind kind) {
        this.kind = kind;
    }

    @Override
    protected void loadValues(FieldVector vector, int rows) {
        ensureBatch(rows);
        Columns.loadLongs(kind, vector, rows, batch);
    }

    /** Loads plain values (no NULLs), e.g. group ids of an enclosing aggregation. */
    void loadValues(int[] source, int rows) {
        ensureBatch(rows);
        batchHasNulls = false;
        for (int i = 0; i < rows; i++) {
            batch[i] = source[i];
        }
    }

    private void ensureBatch(int rows) {
        if (batch.length < rows) {
            batch = new long[rows];
        }
    }

    @Override
    void hash(int rows, long[] hashes) {
        for (int i = 0; i < rows; i++) {
            hashes[i] = Hashing.combine(hashes[i], batchNull(i) ? Hashing.NULL_HASH : batch[i]);
        }
    }

    @Override
    protected void appendValues(int[] rows, int count, int firstGroup) {
        for (int i = 0; i < count; i++) {
            values[firstGroup + i] = batch[rows[i]];
        }
    }

    @Override
    void verify(int[] rows, int[] groups, int count, boolean[] mismatch) {
        if (!batchHasNulls) {
            for (int i = 0; i < count; i++) {
                int g = groups[i];
                if (groupNulls[g] || values[g] != batch[rows[i]]) {
                    mismatch[i] = true;
                }
            }
            return;
        }
        for (int i = 0; i < count; i++) {
            if (!matches(groups[i], rows[i])) {
                mismatch[i] = true;
            }
        }
    }

    @Override
    boolean matches(int group, int row) {
        boolean isNull = batchNull(row);
        return groupNulls[group] == isNull && (isNull || values[group] == batch[row]);
    }

    @Override
    protected void growValues(int capacity) {
        values = Arrays.copyOf(values, capacity);
    }

    @Override
    int bytesPerGroup() {
        return 9;
    }

    @Override
    FieldVector output(Field field, int from, int count, BufferAllocator allocator) {
        FieldVector vector = Columns.newVector(field, count, 0, allocator);
        try {
            Columns.writeLongs(kind, vector, values, groupNulls, true, from, count);
            return vector;
        } catch (RuntimeException e) {
            vector.close();
            throw e;
        }
    }
}
