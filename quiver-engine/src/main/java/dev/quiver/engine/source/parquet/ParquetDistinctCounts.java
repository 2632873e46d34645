package dev.quiver.engine.source.parquet;

import dev.quiver.engine.source.files.StatsValues;
import dev.quiver.engine.stats.ColumnStatistics;
import dev.quiver.engine.stats.DistinctEstimator;
import dev.quiver.engine.stats.Estimate;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Estimates a column's distinct values over several row groups, from what the footers and the
 * dictionary page headers say (the optimizer orders joins by these; without them it joined
 * supplier with customer on the nation key alone). Every estimate is inexact.
 *
 * <ul>
 *   <li>A row group whose chunk is all dictionary-encoded knows its own distinct count (the
 *       dictionary's size); {@link DistinctEstimator#domainSize} turns it into the size of the
 *       domain the chunk's values come from (25 nation keys among 75 000 rows: 25).
 *   <li>Row groups whose min/max ranges overlap are taken to draw from one domain (the largest of
 *       theirs, at most the sum of their counts); row groups with disjoint ranges (data sorted on
 *       the column, such as keys) add up. Ranges that only touch (one order's lines split over
 *       two row groups) count as disjoint.
 *   <li>The estimate is at most the non-null rows, and for integers, dates and decimals at most
 *       the number of values between min and max.
 *   <li>When a row group has no dictionary, only that last bound remains; for other types the
 *       count stays unknown.
 * </ul>
 */
final class ParquetDistinctCounts {
    private ParquetDistinctCounts() {}

    /** One row group's evidence: distinct values among non-null rows, and the value range. */
    record Part(long distinct, long rows, Optional<Object> min, Optional<Object> max) {}

    /** The estimate for {@code column} over {@code rowGroups}, whose merged statistics are {@code merged}. */
    static Estimate estimate(List<ParquetRowGroup> rowGroups, int column, ColumnStatistics merged) {
        List<Part> parts = new ArrayList<>(rowGroups.size());
        long nonNull = 0;
        boolean complete = true;
        for (ParquetRowGroup rowGroup : rowGroups) {
            ColumnStatistics chunk = rowGroup.columns().get(column);
            long rows = rowGroup.rowCount() - (chunk.nullCount().isKnown() ? chunk.nullCount().value() : 0);
            if (rows <= 0) {
                continue;
            }
            nonNull += rows;
            if (chunk.distinctCount().isKnown()) {
                parts.add(new Part(Math.min(chunk.distinctCount().value(), rows), rows, chunk.min(), chunk.max()));
            } else {
                complete = false;
            }
        }
        return estimate(parts, complete, nonNull, valuesBetween(merged.min(), merged.max()));
    }

    /**
     * @param complete whether every row group with non-null values is among {@code parts}
     * @param nonNull the non-null rows of all row groups
     * @param range how many values lie between the column's min and max, or {@link Long#MAX_VALUE}
     */
    static Estimate estimate(List<Part> parts, boolean complete, long nonNull, long range) {
        if (nonNull == 0) {
            return Estimate.exact(0);
        }
        long bound = Math.min(nonNull, range);
        if (!complete) {
            return range == Long.MAX_VALUE ? Estimate.absent() : Estimate.inexact(bound);
        }
        return Estimate.inexact(Math.max(1, Math.min(bound, fromParts(parts))));
    }

    private static long fromParts(List<Part> parts) {
        boolean ordered = parts.stream().allMatch(part -> part.min().isPresent() && part.max().isPresent()
                && StatsValues.comparable(part.min().get(), parts.get(0).min().get())
                && StatsValues.comparable(part.max().get(), parts.get(0).min().get()));
        if (!ordered) {
            return cluster(parts);
        }
        List<Part> sorted = new ArrayList<>(parts);
        sorted.sort(Comparator.comparing(part -> part.min().get(), StatsValues::compare));
        double total = 0;
        List<Part> cluster = new ArrayList<>();
        Object clusterMax = null;
        for (Part part : sorted) {
            if (clusterMax != null && StatsValues.compare(part.min().get(), clusterMax) >= 0) {
                total += cluster(cluster);
                cluster.clear();
                clusterMax = null;
            }
            cluster.add(part);
            if (clusterMax == null || StatsValues.compare(part.max().get(), clusterMax) > 0) {
                clusterMax = part.max().get();
            }
        }
        total += cluster(cluster);
        return (long) Math.min(Long.MAX_VALUE, total);
    }

    /** Row groups drawing from one domain: the largest domain any of them implies, at most all their values. */
    private static long cluster(List<Part> parts) {
        double domain = 0;
        double sum = 0;
        long largest = 0;
        for (Part part : parts) {
            domain = Math.max(domain, DistinctEstimator.domainSize(part.distinct(), part.rows()));
            sum += part.distinct();
            largest = Math.max(largest, part.distinct());
        }
        return Math.max(largest, (long) Math.min(sum, Math.round(domain)));
    }

    /** Values between min and max inclusive for integers, dates and decimals; {@link Long#MAX_VALUE} when unbounded or unknown. */
    static long valuesBetween(Optional<Object> min, Optional<Object> max) {
        if (min.isEmpty() || max.isEmpty()) {
            return Long.MAX_VALUE;
        }
        Object low = min.get();
        Object high = max.get();
        if (low instanceof Boolean && high instanceof Boolean) {
            return low.equals(high) ? 1 : 2;
        }
        if ((low instanceof Integer || low instanceof Long) && (high instanceof Integer || high instanceof Long)) {
            return spread(BigDecimal.valueOf(((Number) high).longValue()).subtract(BigDecimal.valueOf(((Number) low).longValue())));
        }
        if (low instanceof BigDecimal a && high instanceof BigDecimal b && a.scale() == b.scale()) {
            return spread(new BigDecimal(b.unscaledValue().subtract(a.unscaledValue())));
        }
        return Long.MAX_VALUE;
    }

    private static long spread(BigDecimal difference) {
        if (difference.signum() < 0 || difference.compareTo(BigDecimal.valueOf(Long.MAX_VALUE - 1)) >= 0) {
            return Long.MAX_VALUE;
        }
        return difference.longValueExact() + 1;
    }
}
