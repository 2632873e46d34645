package dev.quiver.engine.spi;

import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.stats.Statistics;
import java.util.List;
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

    /**
     * Sets of column ordinals (in {@link #schema()} order) that are each declared unique, such as
     * a primary key of several columns. The optimizer relies on them, e.g. to remove aggregates, so
     * a source declares only keys that hold for every row. None by default.
     */
    default List<List<Integer>> uniqueKeys() {
        return List.of();
    }

    /**
     * Whether {@code INSERT INTO} may add rows to this table: true only for the tables a session
     * stores itself ({@code CREATE TABLE}); what {@code information_schema.tables} reports as
     * {@code is_insertable_into}.
     */
    default boolean insertable() {
        return false;
    }

    /** A leaf plan producing the requested columns, split into partitions. */
    ExecutionPlan scan(ScanRequest request);
}
