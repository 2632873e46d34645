package dev.quiver.engine.operator.aggregate;

import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.Field;

/** MIN or MAX of DOUBLE values, ordered as {@link Double#compare} (NaN above every number). */
final class DoubleMinMaxAccumulator extends Accumulator {
    private final boolean max;
    private double[] values = new double[0];
    private boolean[] hasValue = new boolean[0];

    DoubleMinMaxAccumulator(boolean max) {
        this.max = max;
    }

    @Override
    protected void grow(int newCapacity) {
        values = Arrays.copyOf(values, newCapacity);
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
        double[] input = scratch().doubles(rows);
        Columns.loadDoubles(arg, rows, input);
        boolean[] nulls = scratch().nulls(arg, rows);
        double[] v = values;
        boolean[] seen = hasValue;
        int sign = max ? 1 : -1;
        for (int i = 0; i < rows; i++) {
            if (nulls == null || !nulls[i]) {
                int g = groupIds[i];
                if (!seen[g] || Double.compare(input[i], v[g]) * sign > 0) {
                    v[g] = input[i];
                    seen[g] = true;
                }
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
            Columns.writeDoubles(vector, values, hasValue, false, from, count);
            return vector;
        } catch (RuntimeException e) {
            vector.close();
            throw e;
        }
    }
}
