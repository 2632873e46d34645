package dev.quiver.engine.operator.aggregate;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * SUM of integers into a BIGINT (or INTEGER) result; an overflow fails the query with
 * NUMERIC_VALUE_OUT_OF_RANGE rather than wrapping.
 */
final class LongSumAccumulator extends Accumulator {
    private final String name;
    long[] sums = new long[0];
    boolean[] hasValue = new boolean[0];

    LongSumAccumulator(String name) {
        this.name = name;
    }

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
        ColumnKind kind = ColumnKind.of(arg.getField().getType());
        long[] values = scratch().longs(rows);
        Columns.loadLongs(kind, arg, rows, values);
        boolean[] nulls = scratch().nulls(arg, rows);
        long[] s = sums;
        boolean[] seen = hasValue;
        for (int i = 0; i < rows; i++) {
            if (nulls != null && nulls[i]) {
                continue;
            }
            int g = groupIds[i];
            long before = s[g];
            long value = values[i];
            long after = before + value;
            if (((before ^ after) & (value ^ after)) < 0) {
                throw overflow();
            }
            s[g] = after;
            seen[g] = true;
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
        ColumnKind kind = ColumnKind.of(field.getType());
        if (kind == ColumnKind.INT32) {
            for (int g = from; g < from + count; g++) {
                if (hasValue[g] && (int) sums[g] != sums[g]) {
                    throw overflow();
                }
            }
        }
        FieldVector vector = Columns.newVector(field, count, 0, allocator);
        try {
            Columns.writeLongs(kind, vector, sums, hasValue, false, from, count);
            return vector;
        } catch (RuntimeException e) {
            vector.close();
            throw e;
        }
    }

    private QuiverException overflow() {
        return new QuiverException(ErrorCode.NUMERIC_VALUE_OUT_OF_RANGE, "SUM for " + name + " is out of range of BIGINT");
    }
}
