package dev.quiver.engine.operator.aggregate;

import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.Field;

/** SUM into a DOUBLE result. */
final class DoubleSumAccumulator extends Accumulator {
    double[] sums = new double[0];
    boolean[] hasValue = new boolean[0];

    @Override
    protected void grow(int newCapacity) {
        sums = Arrays.copyOf(sums, newCapacity);
        hasValue = Arrays.copyOf(hasValue, newCapacity);
    }

    @Override
    public int bytesPerGroup() {
        return 9;
    }

    @Override
    public void update(int[] groupIds, int rows, List<FieldVector> inputs) {
        updateValues(groupIds, rows, inputs.get(0));
    }

    private void updateValues(int[] groupIds, int rows, FieldVector arg) {
        double[] values = scratch().loadDoubles(arg, rows);
        boolean[] nulls = scratch().nulls(arg, rows);
        double[] s = sums;
        boolean[] seen = hasValue;
        for (int i = 0; i < rows; i++) {
            if (nulls == null || !nulls[i]) {
                int g = groupIds[i];
                s[g] += values[i];
                seen[g] = true;
            }
        }
    }

    @Override
    public void merge(int[] groupIds, int rows, List<FieldVector> states) {
        updateValues(groupIds, rows, states.get(0));
    }

    @Override
    public void state(List<Field> fields, int from, int count, BufferAllocator allocator, List<FieldVector> out) {
        out.add(evaluate(fields.get(0), from, count, allocator));
    }

    @Override
    public FieldVector evaluate(Field field, int from, int count, BufferAllocator allocator) {
        FieldVector vector = Columns.newVector(field, count, 0, allocator);
        try {
            Columns.writeDoubles(vector, sums, hasValue, false, from, count);
            return vector;
        } catch (RuntimeException e) {
            vector.close();
            throw e;
        }
    }
}
