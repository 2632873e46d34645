package dev.quiver.engine.stats;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * Statistics of one column. {@code min} and {@code max} are in the engine's literal
 * representation (see {@link dev.quiver.engine.expr.LiteralExpr}) and may be empty when unknown.
 */
public record ColumnStatistics(Estimate nullCount, Estimate distinctCount, Optional<Object> min, Optional<Object> max, boolean boundsExact) {
    public ColumnStatistics {
        requireNonNull(nullCount, "nullCount is null");
        requireNonNull(distinctCount, "distinctCount is null");
        requireNonNull(min, "min is null");
        requireNonNull(max, "max is null");
    }

    public static ColumnStatistics unknown() {
        return new ColumnStatistics(Estimate.absent(), Estimate.absent(), Optional.empty(), Optional.empty(), false);
    }

    public ColumnStatistics withDistinctCount(Estimate distinct) {
        return new ColumnStatistics(nullCount, distinct, min, max, boundsExact);
    }

    /** The same statistics, no longer claimed exact (after a filter, a sample, a merge of parts). */
    public ColumnStatistics toInexact() {
        return new ColumnStatistics(nullCount.toInexact(), distinctCount.toInexact(), min, max, false);
    }
}
