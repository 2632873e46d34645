package dev.quiver.engine.operator.aggregate;

import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
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
    public int bytesPerGroup() {
        return 17;
    }

    @Override
    public void update(int[] groupIds, int rows, List<FieldVector> inputs) {
        updateValues(groupIds, rows, inputs.get(0));
    }

    private void updateValues(int[] groupIds, int rows, FieldVector arg) {
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

    /**
     * Without NULLs: a DECIMAL of precision up to 18 compares its low words as signed longs (the
     * high word is their sign), read in place; wider ones compare both words in place.
     */
    @Override
    public void updateSingleGroup(int[] zeros, int rows, List<FieldVector> inputs) {
        updateSingleValues(zeros, rows, inputs.get(0));
    }

    private void updateSingleValues(int[] zeros, int rows, FieldVector arg) {
        if (arg.getNullCount() != 0) {
            updateValues(zeros, rows, arg);
            return;
        }
        if (((ArrowType.Decimal) arg.getField().getType()).getPrecision() <= 18) {
            long start = hasValue[0] ? lows[0] : max ? Long.MIN_VALUE : Long.MAX_VALUE;
            long best = Columns.extremeDecimalLow(arg, rows, max, start);
            lows[0] = best;
            highs[0] = best >> 63;
            hasValue[0] = true;
            return;
        }
        long address = Columns.checkedAddress(arg.getDataBuffer(), rows, 16);
        int sign = max ? 1 : -1;
        long bestLow = MemoryUtil.getLong(address);
        long bestHigh = MemoryUtil.getLong(address + 8);
        for (int i = 1; i < rows; i++) {
            long low = MemoryUtil.getLong(address + (long) i * 16);
            long high = MemoryUtil.getLong(address + (long) i * 16 + 8);
            if (compare(low, high, bestLow, bestHigh) * sign > 0) {
                bestLow = low;
                bestHigh = high;
            }
        }
        if (!hasValue[0] || compare(bestLow, bestHigh, lows[0], highs[0]) * sign > 0) {
            lows[0] = bestLow;
            highs[0] = bestHigh;
            hasValue[0] = true;
        }
    }

    private static int compare(long lowA, long highA, long lowB, long highB) {
        int high = Long.compare(highA, highB);
        return high != 0 ? high : Long.compareUnsigned(lowA, lowB);
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
