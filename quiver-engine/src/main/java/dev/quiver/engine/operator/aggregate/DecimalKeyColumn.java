package dev.quiver.engine.operator.aggregate;

import java.util.Arrays;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.Field;

/** DECIMAL keys as 128-bit unscaled values (one scale per column, so equal values have equal words). */
final class DecimalKeyColumn extends KeyColumn {
    private long[] lows = new long[0];
    private long[] highs = new long[0];
    private long[] batchLows = new long[0];
    private long[] batchHighs = new long[0];

    @Override
    protected void loadValues(FieldVector vector, int rows) {
        if (batchLows.length < rows) {
            batchLows = new long[rows];
            batchHighs = new long[rows];
        }
        Columns.loadDecimals(vector, rows, batchLows, batchHighs);
    }

    @Override
    void hash(int rows, long[] hashes) {
        for (int i = 0; i < rows; i++) {
            hashes[i] = batchNull(i) ? Hashing.combine(hashes[i], Hashing.NULL_HASH)
                    : Hashing.combine(Hashing.combine(hashes[i], batchLows[i]), batchHighs[i]);
        }
    }

    @Override
    protected void appendValues(int[] rows, int count, int firstGroup) {
        for (int i = 0; i < count; i++) {
            lows[firstGroup + i] = batchLows[rows[i]];
            highs[firstGroup + i] = batchHighs[rows[i]];
        }
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
        return groupNulls[group] == isNull && (isNull || (lows[group] == batchLows[row] && highs[group] == batchHighs[row]));
    }

    @Override
    protected void growValues(int capacity) {
        lows = Arrays.copyOf(lows, capacity);
        highs = Arrays.copyOf(highs, capacity);
    }

    @Override
    int bytesPerGroup() {
        return 17;
    }

    @Override
    FieldVector output(Field field, int from, int count, BufferAllocator allocator) {
        FieldVector vector = Columns.newVector(field, count, 0, allocator);
        try {
            for (int i = 0; i < count; i++) {
                int g = from + i;
                if (!groupNulls[g]) {
                    Columns.setDecimal(vector, i, lows[g], highs[g]);
                }
            }
            vector.setValueCount(count);
            return vector;
        } catch (RuntimeException e) {
            vector.close();
            throw e;
        }
    }
}
