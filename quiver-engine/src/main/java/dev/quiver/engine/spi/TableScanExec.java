package dev.quiver.engine.spi;

import dev.quiver.engine.error.QueryWarning;
import dev.quiver.engine.execution.ExecutionPlan;
import java.util.List;
import java.util.Map;

/**
 * A leaf that reads one table. Besides naming it, a scan can turn what its partitions counted into
 * {@linkplain QueryWarning warnings} for the query's result, e.g. the rows {@code ignore_errors}
 * skipped: the session asks it once the query ended, with the counters of every partition (on one
 * node) or of every task (distributed) summed, so the scan's own metrics need not be the ones that
 * ran.
 */
public interface TableScanExec extends ExecutionPlan {
    /** The table's name as the query wrote it (for a file read by a function, the call). */
    String tableName();

    /**
     * Whether {@link #warnings} can return any: a distributed query waits for its tasks' final
     * reports before its warnings are known, which only such scans need. False by default.
     */
    default boolean mayWarn() {
        return false;
    }

    /** The warnings that {@code counters}, this scan's counters summed over every partition that ran, call for. None by default. */
    default List<QueryWarning> warnings(Map<String, Long> counters) {
        return List.of();
    }
}
