package dev.quiver.engine.operator.aggregate;

import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.Field;

/** MIN or MAX of DECIMAL values, compared as 128-bit unscaled values (the column has one scale). */
final class DecimalMinMaxAccumulator extends Accumulator {
    private final boolean max;
    private long[] lows = new long[0];
    private long[] highs = new long[0];
    private boolean[] hasValue = new boolean[0];

    DecimalMinMaxAccumulator(boolean max) {
        this.max = max;
    }

    @Override
    protected void grow(int newCapacity) {
        lows = Arrays.copyOf(lows, newCapacity);
        highs = Arrays.copyOf(highs, newCapacity);
        hasValue = Arrays.copyOf(hasValue, newCapacity);
    }

    @Override
    int bytesPerGroup() {
        return 17;
    }

    @Override
    void update(int[] groupIds, int rows, FieldVector arg) {
        long[] inLows = scratch().longs(rows);
        long[] inHighs = scratch().highs(rows);
        Columns.loadDecimals(arg, rows, inLows, inHighs);
        boolean[] nulls = scratch().nulls(arg, rows);
        int sign = max ? 1 : -1;
        for (int i = 0; i < rows; i++) {
            if (nulls == null || !nulls[i]) {
                int g = groupIds[i];
                if (!hasValue[g] || compare(inLows[i], inHighs[i], lows[g], highs[g]) * sign > 0) {
                    lows[g] = inLows[i];
                    highs[g] = inHighs[i];
                    hasValue[g] = true;
                }
            }
        }
    }

    private static int compare(long lowA, long highA, long lowB, long highB) {
        int high = Long.compare(highA, highB);
        return high != 0 ? high : Long.compareUnsigned(lowA, lowB);
    }

    @Override
    void merge(int[] groupIds, int rows, List<FieldVector> states) {
        update(groupIds, rows, states.get(0));
    }

    @Override
    void state(List<Field> fields, int from, int count, BufferAllocator allocator, List<FieldVector> out) {
        out.add(evaluate(fields.get(0), from, count, allocator));
    }

    @Override
    FieldVector evaluate(Field field, int from, int count, BufferAllocator allocator) {
        FieldVector vector = Columns.newVector(field, count, 0, allocator);
        try {
            for (int i = 0; i < count; i++) {
                if (hasValue[from + i]) {
                    Columns.setDecimal(vector, i, lows[from + i], highs[from + i]);
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
