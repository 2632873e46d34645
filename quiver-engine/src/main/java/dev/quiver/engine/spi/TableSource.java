package dev.quiver.engine.spi;

import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.stats.Statistics;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A table a query can read: its schema, its statistics (which the SQL optimizer uses to order
 * joins and the distributed planner to size stages), and a scan plan for a request.
 */
public interface TableSource {
    String name();

    Schema schema();

    /** Statistics of the whole table; per-column statistics follow {@link #schema()}. */
    Statistics statistics();

    /** A leaf plan producing the requested columns, split into partitions. */
    ExecutionPlan scan(ScanRequest request);
}
