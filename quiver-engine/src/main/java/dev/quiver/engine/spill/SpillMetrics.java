package dev.quiver.engine.spill;

import dev.quiver.engine.metrics.PartitionMetrics;

/**
 * The counters every spilling operator shows in {@code EXPLAIN ANALYZE}: how many times it spilled,
 * and the bytes (as written, compressed) and rows it wrote.
 */
public final class SpillMetrics {
    public static final String SPILL_COUNT = "spill_count";
    public static final String SPILLED_BYTES = "spilled_bytes";
    public static final String SPILLED_ROWS = "spilled_rows";

    private SpillMetrics() {}

    /** Counts one spill of {@code bytes} written holding {@code rows} rows. */
    public static void record(PartitionMetrics metrics, long bytes, long rows) {
        metrics.addCounter(SPILL_COUNT, 1);
        metrics.addCounter(SPILLED_BYTES, bytes);
        metrics.addCounter(SPILLED_ROWS, rows);
    }

    /** Counts a finished spill file as one spill. */
    public static void record(PartitionMetrics metrics, SpillFile file) {
        record(metrics, file.bytes(), file.rows());
    }
}
