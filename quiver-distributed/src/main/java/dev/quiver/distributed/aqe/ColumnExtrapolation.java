package dev.quiver.distributed.aqe;

import dev.quiver.distributed.protocol.ColumnSample;
import dev.quiver.distributed.protocol.PartitionSample;
import dev.quiver.engine.stats.ColumnStatistics;
import dev.quiver.engine.stats.DistinctEstimator;
import dev.quiver.engine.stats.Estimate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The per-column part of {@link StageSampleCollector#estimate()}: null counts scale like rows;
 * distinct values follow {@link StageSampleCollector#extrapolateDistinct}, counting the largest
 * partition's values when every partition repeats its values (they share them) and their sum
 * otherwise (they hold different ones).
 */
final class ColumnExtrapolation {
    private final double[] nulls;
    private final double[] nonNullSampled;
    private final double[] distinct;
    private final double[] mostDistinct;
    private final boolean[] repeating;
    private final boolean[] distinctKnown;

    ColumnExtrapolation(int columns) {
        nulls = new double[columns];
        nonNullSampled = new double[columns];
        distinct = new double[columns];
        mostDistinct = new double[columns];
        repeating = new boolean[columns];
        distinctKnown = new boolean[columns];
        Arrays.fill(repeating, true);
        Arrays.fill(distinctKnown, true);
    }

    void add(PartitionSample sample, double completion) {
        for (int i = 0; i < nulls.length; i++) {
            if (i >= sample.columns().size()) {
                distinctKnown[i] = false;
                continue;
            }
            ColumnSample column = sample.columns().get(i);
            double nonNull = sample.rows() * (1 - column.nullFraction());
            nulls[i] += column.nullFraction() * sample.rows() / completion;
            nonNullSampled[i] += nonNull;
            double seen = Math.max(0, column.distinctFraction()) * nonNull;
            distinct[i] += seen;
            mostDistinct[i] = Math.max(mostDistinct[i], seen);
            repeating[i] &= column.distinctFraction() <= DistinctEstimator.REPEATING;
            distinctKnown[i] &= column.distinctKnown();
        }
    }

    /** The columns' statistics, with the partitions' nulls scaled by {@code scale}, all INEXACT. */
    List<ColumnStatistics> statistics(double scale, long totalRows) {
        List<ColumnStatistics> columns = new ArrayList<>(nulls.length);
        for (int i = 0; i < nulls.length; i++) {
            long nullCount = Math.min(totalRows, Math.round(nulls[i] * scale));
            long seen = Math.round(repeating[i] ? mostDistinct[i] : distinct[i]);
            Estimate ndv = distinctKnown[i]
                    ? Estimate.inexact(StageSampleCollector.extrapolateDistinct(seen, Math.round(nonNullSampled[i]), totalRows - nullCount))
                    : Estimate.absent();
            columns.add(new ColumnStatistics(Estimate.inexact(nullCount), ndv, Optional.empty(), Optional.empty(), false));
        }
        return columns;
    }
}
