package dev.quiver.engine.operator.aggregate;

import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * AVG as a sum (BIGINT of integers, DECIMAL(38, s) of decimals, DOUBLE of doubles) and a count of
 * non-NULL values. The result is {@code sum / count} in the result type: DECIMAL rounded HALF_UP
 * to its scale, DOUBLE, or (for an integer result) truncated toward zero; NULL when the count is 0.
 */
final class AvgAccumulator extends Accumulator {
    private final Accumulator sum;
    private final CountAccumulator count = new CountAccumulator();

    /** @param sum the accumulator of the sum state: {@link LongSumAccumulator}, {@link DecimalSumAccumulator} or {@link DoubleSumAccumulator} */
    AvgAccumulator(Accumulator sum) {
        this.sum = sum;
    }

    @Override
    protected void grow(int newCapacity) {
        if (newCapacity == 0) {
            sum.clear();
            count.clear();
        } else {
            sum.ensureCapacity(newCapacity);
            count.ensureCapacity(newCapacity);
        }
    }

    @Override
    public int bytesPerGroup() {
        return sum.bytesPerGroup() + count.bytesPerGroup();
    }

    @Override
    public void update(int[] groupIds, int rows, List<FieldVector> inputs) {
        sum.update(groupIds, rows, inputs);
        count.update(groupIds, rows, inputs);
    }

    @Override
    public void merge(int[] groupIds, int rows, List<FieldVector> states) {
        sum.merge(groupIds, rows, states.subList(0, 1));
        count.merge(groupIds, rows, states.subList(1, 2));
    }

    @Override
    public void state(List<Field> fields, int from, int count, BufferAllocator allocator, List<FieldVector> out) {
        sum.state(fields.subList(0, 1), from, count, allocator, out);
        this.count.state(fields.subList(1, 2), from, count, allocator, out);
    }

    @Override
    public FieldVector evaluate(Field field, int from, int rows, BufferAllocator allocator) {
        FieldVector vector = Columns.newVector(field, rows, 0, allocator);
        try {
            long[] counts = count.counts;
            long[] quotient = new long[2];
            ArrowType type = field.getType();
            for (int i = 0; i < rows; i++) {
                int g = from + i;
                long n = counts[g];
                if (n == 0) {
                    continue;
                }
                if (type instanceof ArrowType.Decimal decimal) {
                    divideDecimal(g, n, decimal, quotient);
                    DecimalResults.checkFits(quotient[0], quotient[1], decimal, "AVG");
                    Columns.setDecimal(vector, i, quotient[0], quotient[1]);
                } else if (type instanceof ArrowType.FloatingPoint) {
                    ((Float8Vector) vector).set(i, sumAsDouble(g) / n);
                } else {
                    long value = (long) (sumAsDouble(g) / n);
                    if (sum instanceof LongSumAccumulator longSum) {
                        value = longSum.sums[g] / n;
                    }
                    if (vector instanceof IntVector ints) {
                        ints.set(i, (int) value);
                    } else {
                        ((BigIntVector) vector).set(i, value);
                    }
                }
            }
            vector.setValueCount(rows);
            return vector;
        } catch (RuntimeException e) {
            vector.close();
            throw e;
        }
    }

    private void divideDecimal(int group, long n, ArrowType.Decimal type, long[] out) {
        if (sum instanceof DecimalSumAccumulator decimalSum) {
            DecimalResults.divideHalfUp(decimalSum.lows[group], decimalSum.highs[group], decimalSum.scale(), n, type.getScale(), out);
        } else if (sum instanceof LongSumAccumulator longSum) {
            long value = longSum.sums[group];
            DecimalResults.divideHalfUp(value, value >> 63, 0, n, type.getScale(), out);
        } else {
            throw new IllegalStateException("AVG with a DOUBLE sum cannot produce " + type);
        }
    }

    private double sumAsDouble(int group) {
        if (sum instanceof DoubleSumAccumulator doubleSum) {
            return doubleSum.sums[group];
        }
        if (sum instanceof DecimalSumAccumulator decimalSum) {
            return DecimalResults.toDouble(decimalSum.lows[group], decimalSum.highs[group], decimalSum.scale());
        }
        return ((LongSumAccumulator) sum).sums[group];
    }
}
