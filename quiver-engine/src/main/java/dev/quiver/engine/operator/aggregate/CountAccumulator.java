package dev.quiver.engine.operator.aggregate;

import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * {@code COUNT(*)} (no argument: every row), {@code COUNT(x)} (non-NULL values) and
 * {@code COUNT(x, y, ...)} / {@code REGR_COUNT(y, x)} (rows where no argument is NULL).
 */
final class CountAccumulator extends Accumulator {
    long[] counts = new long[0];

    @Override
    protected void grow(int newCapacity) {
        counts = Arrays.copyOf(counts, newCapacity);
    }

    @Override
    public int bytesPerGroup() {
        return 8;
    }

    @Override
    public void update(int[] groupIds, int rows, List<FieldVector> inputs) {
        long[] c = counts;
        boolean[] nulls = inputs.isEmpty() ? null : scratch().nulls(inputs, rows);
        if (nulls == null) {
            for (int i = 0; i < rows; i++) {
                c[groupIds[i]]++;
            }
        } else {
            for (int i = 0; i < rows; i++) {
                if (!nulls[i]) {
                    c[groupIds[i]]++;
                }
            }
        }
    }

    @Override
    public void merge(int[] groupIds, int rows, List<FieldVector> states) {
        long[] values = scratch().longs(rows);
        Columns.loadLongs(ColumnKind.INT64, states.get(0), rows, values);
        long[] c = counts;
        for (int i = 0; i < rows; i++) {
            c[groupIds[i]] += values[i];
        }
    }

    @Override
    public void state(List<Field> fields, int from, int count, BufferAllocator allocator, List<FieldVector> out) {
        out.add(evaluate(fields.get(0), from, count, allocator));
    }

    @Override
    public FieldVector evaluate(Field field, int from, int count, BufferAllocator allocator) {
        FieldVector vector = Columns.newVector(field, count, 0, allocator);
        try {
            Columns.writeLongs(ColumnKind.of(field.getType()), vector, counts, null, true, from, count);
            return vector;
        } catch (RuntimeException e) {
            vector.close();
            throw e;
        }
    }
}
