package dev.quiver.engine.source.tpch;

import dev.quiver.engine.stats.ColumnStatistics;
import dev.quiver.engine.stats.Estimate;
import dev.quiver.engine.stats.Statistics;
import java.util.List;
import java.util.Optional;

/** Statistics of a whole TPC-H table, computed from the specification's cardinalities without generating data. */
final class TpchStatistics {
    private TpchStatistics() {}

    static Statistics of(TpchTableDef<?> table, double scaleFactor) {
        Estimate rows = table.rowCount(scaleFactor);
        List<ColumnStatistics> columns = table.columns().stream()
                .map(column -> new ColumnStatistics(Estimate.exact(0), capped(column.distinctCount().apply(scaleFactor), rows),
                        Optional.empty(), Optional.empty(), false))
                .toList();
        long width = table.columns().stream().mapToLong(TpchColumnDef::averageWidth).sum();
        return new Statistics(rows, Estimate.inexact(rows.value() * width), columns);
    }

    /**
     * A column has no more distinct values than its table has rows (small scale factors). The cap
     * is only an upper bound: claiming it exact would make the column look like a unique key, and
     * the optimizer would then drop GROUP BYs on it.
     */
    private static Estimate capped(Estimate distinct, Estimate rows) {
        if (!distinct.isKnown() || distinct.value() <= rows.value()) {
            return distinct;
        }
        return Estimate.inexact(rows.value());
    }
}
