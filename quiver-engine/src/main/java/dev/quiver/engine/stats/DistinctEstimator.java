package dev.quiver.engine.stats;

import dev.quiver.engine.execution.PlanChecks;

/**
 * Distinct-count estimates from partial evidence: a sample, or a part of a table (a Parquet row
 * group's dictionary). The model is that the rows of a part draw their values uniformly from a
 * domain of {@code D} values; a part of {@code n} non-null rows then holds on average
 * {@code D·(1 − e^(−n/D))} distinct values, which is inverted here. A part whose values are all
 * different says only that the domain is large ({@link Double#POSITIVE_INFINITY}).
 */
public final class DistinctEstimator {
    private DistinctEstimator() {}

    /**
     * The domain size that best explains {@code distinct} distinct values among {@code rows}
     * non-null rows: about {@code distinct} when values repeat a lot (25 nations among 75 000
     * customers), larger when most values are new (145 000 part keys among 262 144 lines
     * make about 200 000), infinite when every value is different.
     */
    public static double domainSize(long distinct, long rows) {
        if (distinct < 0 || rows < 0) {
            throw PlanChecks.planError("DistinctEstimator", "counts must not be negative: %s distinct of %s rows", distinct, rows);
        }
        if (distinct == 0 || rows == 0) {
            return distinct;
        }
        if (distinct >= rows) {
            return Double.POSITIVE_INFINITY;
        }
        double low = distinct;
        double high = distinct;
        while (expectedDistinct(high, rows) < distinct) {
            high *= 2;
            if (high > 1e18) {
                return Double.POSITIVE_INFINITY;
            }
        }
        for (int i = 0; i < 64 && high - low > 0.5; i++) {
            double middle = (low + high) / 2;
            if (expectedDistinct(middle, rows) < distinct) {
                low = middle;
            } else {
                high = middle;
            }
        }
        return high;
    }

    /** A sample repeats its values enough to have seen most of the domain when it has at most this many distinct values per row. */
    public static final double REPEATING = 0.1;

    /**
     * Distinct values of a table from a sample of its rows (such as the first rows of a file):
     * the whole sample's count when it is the whole table; the domain size the sample implies when
     * its values repeat (at most one distinct value in {@code 1 / REPEATING} rows: nations, flags,
     * dates); else unknown, because a sample of data sorted on the column (keys) cannot tell a large
     * domain from one value per row. Never exact; at most the table's non-null rows.
     */
    public static Estimate fromSample(long sampleDistinct, long sampleRows, long tableNonNullRows) {
        if (tableNonNullRows == 0) {
            return Estimate.exact(0);
        }
        if (sampleRows >= tableNonNullRows) {
            return Estimate.inexact(Math.max(1, Math.min(sampleDistinct, tableNonNullRows)));
        }
        if (sampleRows == 0 || sampleDistinct > sampleRows * REPEATING) {
            return Estimate.absent();
        }
        long domain = Math.round(domainSize(sampleDistinct, sampleRows));
        return Estimate.inexact(Math.max(1, Math.min(tableNonNullRows, Math.max(sampleDistinct, domain))));
    }

    private static double expectedDistinct(double domain, long rows) {
        return domain * -Math.expm1(-rows / domain);
    }
}
