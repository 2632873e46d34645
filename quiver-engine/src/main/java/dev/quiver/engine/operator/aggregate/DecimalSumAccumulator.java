package dev.quiver.engine.operator.aggregate;

import dev.quiver.engine.types.QuiverTypes;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * SUM of decimals on 128-bit unscaled values. Each group's sum is a low and a high word; adding a
 * value is two {@code long} additions and a carry, as cheap as a {@code long} sum with an overflow
 * check, and it never needs a fallback. Arguments of precision up to 18 are read as {@code long}s
 * (their high word is the sign). Whether the sum fits the result precision is checked once per
 * group when the result is written.
 */
final class DecimalSumAccumulator extends Accumulator {
    private final String name;
    private final int scale;
    long[] lows = new long[0];
    long[] highs = new long[0];
    boolean[] hasValue = new boolean[0];
    /** Tables of at most this many groups sum each batch in {@code long}s first ({@link #addThroughBatchSums}). */
    private static final int FEW_GROUPS = 256;
    private long[] batchSums = new long[0];

    /** @param scale the scale of the argument values (and of the sum) */
    DecimalSumAccumulator(String name, int scale) {
        this.name = name;
        this.scale = scale;
    }

    int scale() {
        return scale;
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
        ArrowType.Decimal argType = (ArrowType.Decimal) arg.getField().getType();
        if (argType.getScale() != scale) {
            throw new IllegalStateException("SUM over scale " + argType.getScale() + " into scale " + scale + " for " + name);
        }
        long[] valueLows = scratch().longs(rows);
        boolean[] nulls = scratch().nulls(arg, rows);
        if (argType.getPrecision() <= QuiverTypes.MAX_LONG_DECIMAL_PRECISION) {
            Columns.loadDecimalLows(arg, rows, valueLows);
            addLongs(groupIds, rows, valueLows, nulls);
            return;
        }
        long[] valueHighs = scratch().highs(rows);
        Columns.loadDecimals(arg, rows, valueLows, valueHighs);
        long[] l = lows;
        long[] h = highs;
        boolean[] seen = hasValue;
        for (int i = 0; i < rows; i++) {
            if (nulls != null && nulls[i]) {
                continue;
            }
            int g = groupIds[i];
            long low = l[g];
            long sumLow = low + valueLows[i];
            long carry = Long.compareUnsigned(sumLow, low) < 0 ? 1 : 0;
            long high = h[g];
            long addend = valueHighs[i];
            long sumHigh = high + addend + carry;
            if (((high ^ sumHigh) & (addend ^ sumHigh)) < 0) {
                DecimalResults.overflow("SUM for " + name);
            }
            l[g] = sumLow;
            h[g] = sumHigh;
            seen[g] = true;
        }
    }

    /** The common case of values within 18 digits: each is a {@code long}, its high word the sign. */
    private void addLongs(int[] groupIds, int rows, long[] values, boolean[] nulls) {
        if (nulls == null && lows.length <= FEW_GROUPS && batchSumFitsLong(values, rows)) {
            addThroughBatchSums(groupIds, rows, values);
            return;
        }
        long[] l = lows;
        long[] h = highs;
        boolean[] seen = hasValue;
        for (int i = 0; i < rows; i++) {
            if (nulls != null && nulls[i]) {
                continue;
            }
            int g = groupIds[i];
            addLong(l, h, g, values[i]);
            seen[g] = true;
        }
    }

    /** Adds {@code value} (its high word the sign) to group {@code g}'s 128-bit sum. */
    private void addLong(long[] l, long[] h, int g, long value) {
        long low = l[g];
        long sumLow = low + value;
        long carry = Long.compareUnsigned(sumLow, low) < 0 ? 1 : 0;
        long high = h[g];
        long addend = value >> 63;
        long sumHigh = high + addend + carry;
        if (((high ^ sumHigh) & (addend ^ sumHigh)) < 0) {
            DecimalResults.overflow("SUM for " + name);
        }
        l[g] = sumLow;
        h[g] = sumHigh;
    }

    /**
     * Few groups: the batch's sums per group in plain {@code long}s, then added to the 128-bit
     * sums once per group. With few groups, consecutive rows update the same group, and each
     * 128-bit update waits for the one before it (a load of the value the last store wrote); a
     * single {@code long} addition waits far less.
     */
    private void addThroughBatchSums(int[] groupIds, int rows, long[] values) {
        int groups = lows.length;
        if (batchSums.length < groups) {
            batchSums = new long[groups];
        }
        long[] sums = batchSums;
        Arrays.fill(sums, 0, groups, 0);
        boolean[] seen = hasValue;
        for (int i = 0; i < rows; i++) {
            int g = groupIds[i];
            sums[g] += values[i];
            seen[g] = true;
        }
        for (int g = 0; g < groups; g++) {
            if (sums[g] != 0) {
                addLong(lows, highs, g, sums[g]);
            }
        }
    }

    /** Whether any sum of {@code rows} of these values fits a {@code long}: their magnitudes' bits plus the bits of the row count stay below 63. */
    private static boolean batchSumFitsLong(long[] values, int rows) {
        long bits = 0;
        for (int i = 0; i < rows; i++) {
            long v = values[i];
            bits |= v ^ (v >> 63);
        }
        int magnitudeBits = 64 - Long.numberOfLeadingZeros(bits);
        int rowBits = 32 - Integer.numberOfLeadingZeros(Math.max(rows, 1));
        return magnitudeBits + rowBits <= 62;
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
        ArrowType.Decimal type = (ArrowType.Decimal) field.getType();
        FieldVector vector = Columns.newVector(field, count, 0, allocator);
        try {
            long[] rescaled = new long[2];
            // built once: a window evaluates once per output row
            String what = "SUM for " + name;
            for (int i = 0; i < count; i++) {
                int g = from + i;
                if (!hasValue[g]) {
                    continue;
                }
                long low = lows[g];
                long high = highs[g];
                if (type.getScale() != scale) {
                    DecimalResults.rescale(low, high, scale, type.getScale(), rescaled);
                    low = rescaled[0];
                    high = rescaled[1];
                }
                DecimalResults.checkFits(low, high, type, what);
                Columns.setDecimal(vector, i, low, high);
            }
            vector.setValueCount(count);
            return vector;
        } catch (RuntimeException e) {
            vector.close();
            throw e;
        }
    }
}
