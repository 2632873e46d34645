package dev.quiver.engine.operator.aggregate;

import java.util.Arrays;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * DOUBLE keys, compared by their bits after normalising {@code -0.0} to {@code 0.0} and every NaN
 * to one NaN, so that values SQL considers equal form one group. A group outputs the first value
 * it saw, as DuckDB and PostgreSQL do: {@code -0.0} alone stays {@code -0.0}.
 */
final class DoubleKeyColumn extends KeyColumn {
    private long[] bits = new long[0];
    private double[] values = new double[0];
    private double[] batch = new double[0];
    private long[] batchBits = new long[0];

    @Override
    protected void loadValues(FieldVector vector, int rows) {
        if (batch.length < rows) {
            batch = new double[rows];
            batchBits = new long[rows];
        }
        Columns.loadDoubles(vector, rows, batch);
        for (int i = 0; i < rows; i++) {
            double value = batch[i];
            batchBits[i] = value == 0.0 ? 0L : Double.doubleToLongBits(value);
        }
    }

    @Override
    void hash(int rows, long[] hashes) {
        for (int i = 0; i < rows; i++) {
            hashes[i] = Hashing.combine(hashes[i], batchNull(i) ? Hashing.NULL_HASH : batchBits[i]);
        }
    }

    @Override
    protected void appendValues(int[] rows, int count, int firstGroup) {
        for (int i = 0; i < count; i++) {
            bits[firstGroup + i] = batchBits[rows[i]];
            values[firstGroup + i] = batch[rows[i]];
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
        return groupNulls[group] == isNull && (isNull || bits[group] == batchBits[row]);
    }

    @Override
    protected void growValues(int capacity) {
        bits = Arrays.copyOf(bits, capacity);
        values = Arrays.copyOf(values, capacity);
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
                    ((Float8Vector) vector).set(i, values[g]);
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
