package dev.quiver.engine.operator.aggregate;

import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * The two-argument statistics of {@code (y, x)} pairs where neither is NULL: COVAR_SAMP, COVAR_POP,
 * CORR and the REGR_ functions. Each group keeps the count, both means, both M2s (sums of squared
 * deviations) and the co-moment C (the sum of products of the deviations), updated per pair with
 * Welford's method and merged with Chan et al.'s formula — the numerically stable forms, as for
 * {@link VarianceAccumulator}. The results follow DuckDB: CORR is {@code C / sqrt(M2y * M2x)}
 * (NaN when a variance is 0), REGR_SLOPE {@code C / M2x} (NaN when x does not vary), REGR_INTERCEPT
 * {@code mean_y - slope * mean_x} (NULL when the slope is NaN), REGR_R2 NULL when x does not vary
 * and 1 when y does not.
 */
final class CovarianceAccumulator extends Accumulator {
    private final AggregateFunction function;
    private long[] counts = new long[0];
    private double[] meanYs = new double[0];
    private double[] meanXs = new double[0];
    private double[] m2Ys = new double[0];
    private double[] m2Xs = new double[0];
    private double[] comoments = new double[0];
    private double[][] loaded = new double[6][0];

    CovarianceAccumulator(AggregateFunction function) {
        this.function = function;
    }

    @Override
    protected void grow(int newCapacity) {
        counts = Arrays.copyOf(counts, newCapacity);
        meanYs = Arrays.copyOf(meanYs, newCapacity);
        meanXs = Arrays.copyOf(meanXs, newCapacity);
        m2Ys = Arrays.copyOf(m2Ys, newCapacity);
        m2Xs = Arrays.copyOf(m2Xs, newCapacity);
        comoments = Arrays.copyOf(comoments, newCapacity);
    }

    @Override
    public int bytesPerGroup() {
        return 48;
    }

    private double[] loaded(int slot, int rows) {
        if (loaded[slot].length < rows) {
            loaded[slot] = new double[rows];
        }
        return loaded[slot];
    }

    @Override
    public void update(int[] groupIds, int rows, List<FieldVector> inputs) {
        double[] ys = scratch().loadDoubles(inputs.get(0), rows, loaded(0, rows));
        double[] xs = scratch().loadDoubles(inputs.get(1), rows, loaded(1, rows));
        boolean[] nulls = scratch().nulls(inputs, rows);
        for (int i = 0; i < rows; i++) {
            if (nulls != null && nulls[i]) {
                continue;
            }
            int g = groupIds[i];
            double y = ys[i];
            double x = xs[i];
            long n = ++counts[g];
            double dx = x - meanXs[g];
            double dy = y - meanYs[g];
            meanXs[g] += dx / n;
            meanYs[g] += dy / n;
            m2Xs[g] += dx * (x - meanXs[g]);
            m2Ys[g] += dy * (y - meanYs[g]);
            comoments[g] += dx * (y - meanYs[g]);
        }
    }

    @Override
    public void merge(int[] groupIds, int rows, List<FieldVector> states) {
        long[] otherCounts = scratch().longs(rows);
        Columns.loadLongs(ColumnKind.INT64, states.get(0), rows, otherCounts);
        double[][] other = new double[5][];
        for (int s = 0; s < 5; s++) {
            other[s] = loaded(s + 1, rows);
            Columns.loadDoubles(states.get(s + 1), rows, other[s]);
        }
        for (int i = 0; i < rows; i++) {
            long nb = otherCounts[i];
            if (nb == 0) {
                continue;
            }
            int g = groupIds[i];
            long na = counts[g];
            long n = na + nb;
            double weight = (double) na * nb / n;
            double dy = other[0][i] - meanYs[g];
            double dx = other[1][i] - meanXs[g];
            meanYs[g] += dy * nb / n;
            meanXs[g] += dx * nb / n;
            m2Ys[g] += other[2][i] + dy * dy * weight;
            m2Xs[g] += other[3][i] + dx * dx * weight;
            comoments[g] += other[4][i] + dx * dy * weight;
            counts[g] = n;
        }
    }

    @Override
    public void state(List<Field> fields, int from, int count, BufferAllocator allocator, List<FieldVector> out) {
        BigIntVector n = (BigIntVector) Columns.newVector(fields.get(0), count, 0, allocator);
        out.add(n);
        for (int i = 0; i < count; i++) {
            n.set(i, counts[from + i]);
        }
        n.setValueCount(count);
        double[][] columns = {meanYs, meanXs, m2Ys, m2Xs, comoments};
        for (int s = 0; s < columns.length; s++) {
            Float8Vector vector = (Float8Vector) Columns.newVector(fields.get(s + 1), count, 0, allocator);
            out.add(vector);
            for (int i = 0; i < count; i++) {
                vector.set(i, columns[s][from + i]);
            }
            vector.setValueCount(count);
        }
    }

    @Override
    public FieldVector evaluate(Field field, int from, int count, BufferAllocator allocator) {
        Float8Vector vector = (Float8Vector) Columns.newVector(field, count, 0, allocator);
        for (int i = 0; i < count; i++) {
            if (!isNull(from + i)) {
                vector.set(i, result(from + i));
            }
        }
        vector.setValueCount(count);
        return vector;
    }

    private boolean isNull(int g) {
        long n = counts[g];
        return n == 0 || switch (function) {
            case COVAR_SAMP -> n == 1;
            case REGR_R2 -> m2Xs[g] == 0;
            case REGR_INTERCEPT -> Double.isNaN(comoments[g] / m2Xs[g]);
            default -> false;
        };
    }

    private double result(int g) {
        long n = counts[g];
        return switch (function) {
            case COVAR_POP -> comoments[g] / n;
            case COVAR_SAMP -> comoments[g] / (n - 1);
            case CORR -> comoments[g] / Math.sqrt(m2Ys[g] * m2Xs[g]);
            case REGR_SLOPE -> comoments[g] / m2Xs[g];
            case REGR_INTERCEPT -> meanYs[g] - comoments[g] / m2Xs[g] * meanXs[g];
            case REGR_R2 -> m2Ys[g] == 0 ? 1.0 : comoments[g] * comoments[g] / (m2Xs[g] * m2Ys[g]);
            case REGR_AVGX -> meanXs[g];
            case REGR_AVGY -> meanYs[g];
            case REGR_SXX -> m2Xs[g];
            case REGR_SYY -> m2Ys[g];
            case REGR_SXY -> comoments[g];
            default -> throw new IllegalStateException("not a covariance function: " + function);
        };
    }
}
