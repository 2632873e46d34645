package dev.quiver.engine.operator.aggregate;

import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.Field;

/** MIN or MAX of BOOLEAN, INTEGER, BIGINT, DATE or TIMESTAMP values (held as {@code long}). */
final class LongMinMaxAccumulator extends Accumulator {
    private final boolean max;
    private long[] values = new long[0];
    private boolean[] hasValue = new boolean[0];

    LongMinMaxAccumulator(boolean max) {
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
        long[] input = scratch().longs(rows);
        Columns.loadLongs(ColumnKind.of(arg.getField().getType()), arg, rows, input);
        boolean[] nulls = scratch().nulls(arg, rows);
        long[] v = values;
        boolean[] seen = hasValue;
        if (max) {
            for (int i = 0; i < rows; i++) {
                if (nulls == null || !nulls[i]) {
                    int g = groupIds[i];
                    if (!seen[g] || input[i] > v[g]) {
                        v[g] = input[i];
                        seen[g] = true;
                    }
                }
            }
        } else {
            for (int i = 0; i < rows; i++) {
                if (nulls == null || !nulls[i]) {
                    int g = groupIds[i];
                    if (!seen[g] || input[i] < v[g]) {
                        v[g] = input[i];
                        seen[g] = true;
                    }
                }
            }
        }
    }

    @Override
    public void updateSingleGroup(int[] zeros, int rows, List<FieldVector> inputs) {
        updateSingleValues(zeros, rows, inputs.get(0));
    }

    private void updateSingleValues(int[] zeros, int rows, FieldVector arg) {
        ColumnKind kind = ColumnKind.of(arg.getField().getType());
        if (kind == ColumnKind.BOOLEAN || arg.getNullCount() != 0) {
            updateValues(zeros, rows, arg);
            return;
        }
        long start = hasValue[0] ? values[0] : max ? Long.MIN_VALUE : Long.MAX_VALUE;
        values[0] = Columns.extremeLong(kind, arg, rows, max, start);
        hasValue[0] = true;
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
            Columns.writeLongs(ColumnKind.of(field.getType()), vector, values, hasValue, false, from, count);
            return vector;
        } catch (RuntimeException e) {
            vector.close();
            throw e;
        }
    }
}
