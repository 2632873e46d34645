package dev.quiver.engine.operator.aggregate;

import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * VAR_SAMP, VAR_POP, STDDEV_SAMP and STDDEV_POP of numeric values (as doubles). Each group keeps
 * its count, mean and M2 (the sum of squared deviations from the mean), updated per value with
 * Welford's method and merged with Chan et al.'s formula, so that values far from zero with a
 * small spread keep their digits (a sum of squares minus a squared sum would cancel them).
 */
final class VarianceAccumulator extends Accumulator {
    private final AggregateFunction function;
    private long[] counts = new long[0];
    private double[] means = new double[0];
    private double[] m2s = new double[0];
    private double[] mergeM2s = new double[0];

    VarianceAccumulator(AggregateFunction function) {
        this.function = function;
    }

    @Override
    protected void grow(int newCapacity) {
        counts = Arrays.copyOf(counts, newCapacity);
        means = Arrays.copyOf(means, newCapacity);
        m2s = Arrays.copyOf(m2s, newCapacity);
    }

    @Override
    public int bytesPerGroup() {
        return 24;
    }

    @Override
    public void update(int[] groupIds, int rows, List<FieldVector> inputs) {
        FieldVector arg = inputs.get(0);
        double[] values = scratch().loadDoubles(arg, rows);
        boolean[] nulls = scratch().nulls(arg, rows);
        long[] n = counts;
        double[] mean = means;
        double[] m2 = m2s;
        for (int i = 0; i < rows; i++) {
            if (nulls != null && nulls[i]) {
                continue;
            }
            int g = groupIds[i];
            double x = values[i];
            long count = ++n[g];
            double delta = x - mean[g];
            mean[g] += delta / count;
            m2[g] += delta * (x - mean[g]);
        }
    }

    @Override
    public void merge(int[] groupIds, int rows, List<FieldVector> states) {
        long[] otherCounts = scratch().longs(rows);
        Columns.loadLongs(ColumnKind.INT64, states.get(0), rows, otherCounts);
        double[] otherMeans = scratch().loadDoubles(states.get(1), rows);
        if (mergeM2s.length < rows) {
            mergeM2s = new double[rows];
        }
        double[] otherM2s = mergeM2s;
        Columns.loadDoubles(states.get(2), rows, otherM2s);
        for (int i = 0; i < rows; i++) {
            long nb = otherCounts[i];
            if (nb == 0) {
                continue;
            }
            int g = groupIds[i];
            long na = counts[g];
            long n = na + nb;
            double delta = otherMeans[i] - means[g];
            means[g] += delta * nb / n;
            m2s[g] += otherM2s[i] + delta * delta * ((double) na * nb / n);
            counts[g] = n;
        }
    }

    @Override
    public void state(List<Field> fields, int from, int count, BufferAllocator allocator, List<FieldVector> out) {
        BigIntVector n = (BigIntVector) Columns.newVector(fields.get(0), count, 0, allocator);
        out.add(n);
        Float8Vector mean = (Float8Vector) Columns.newVector(fields.get(1), count, 0, allocator);
        out.add(mean);
        Float8Vector m2 = (Float8Vector) Columns.newVector(fields.get(2), count, 0, allocator);
        out.add(m2);
        for (int i = 0; i < count; i++) {
            n.set(i, counts[from + i]);
            mean.set(i, means[from + i]);
            m2.set(i, m2s[from + i]);
        }
        n.setValueCount(count);
        mean.setValueCount(count);
        m2.setValueCount(count);
    }

    @Override
    public FieldVector evaluate(Field field, int from, int count, BufferAllocator allocator) {
        Float8Vector vector = (Float8Vector) Columns.newVector(field, count, 0, allocator);
        boolean sample = function == AggregateFunction.VAR_SAMP || function == AggregateFunction.STDDEV_SAMP;
        boolean root = function == AggregateFunction.STDDEV_SAMP || function == AggregateFunction.STDDEV_POP;
        for (int i = 0; i < count; i++) {
            long n = counts[from + i];
            if (n == 0 || sample && n == 1) {
                continue;
            }
            double variance = m2s[from + i] / (sample ? n - 1 : n);
            vector.set(i, root ? Math.sqrt(variance) : variance);
        }
        vector.setValueCount(count);
        return vector;
    }
}
