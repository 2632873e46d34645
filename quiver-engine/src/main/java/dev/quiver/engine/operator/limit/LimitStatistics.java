package dev.quiver.engine.operator.limit;

import dev.quiver.engine.stats.Estimate;
import dev.quiver.engine.stats.Statistics;
import java.util.OptionalLong;

/** Statistics of the rows that survive an OFFSET/LIMIT (also used by top-k and a merge with fetch). */
public final class LimitStatistics {
    private LimitStatistics() {}

    public static Statistics limited(Statistics input, long skip, OptionalLong fetch) {
        if (skip == 0 && fetch.isEmpty()) {
            return input;
        }
        Estimate rows = input.rowCount();
        if (rows.isKnown()) {
            long left = Math.max(0, rows.value() - skip);
            rows = rows.isExact() ? Estimate.exact(left) : Estimate.inexact(left);
        }
        if (fetch.isPresent()) {
            rows = rows.isKnown() ? rows.min(Estimate.exact(fetch.getAsLong())) : Estimate.inexact(fetch.getAsLong());
        }
        Estimate bytes = Estimate.absent();
        if (input.totalBytes().isKnown() && input.rowCount().isKnown() && rows.isKnown() && input.rowCount().value() > 0) {
            bytes = input.totalBytes().times((double) rows.value() / input.rowCount().value()).toInexact();
        }
        boolean unchanged = rows.isExact() && input.rowCount().isExact() && rows.value() == input.rowCount().value();
        return unchanged ? input : new Statistics(rows, bytes, input.toInexact().columns());
    }
}
