package dev.quiver.engine.source.files;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.metrics.PartitionMetrics;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a file scan's partition counts as it reads, into its metrics (so {@code EXPLAIN ANALYZE}
 * and the distributed plan show them): {@value #SCANNED_BYTES} (bytes read from storage: the
 * compressed column chunks of a Parquet row group, a CSV split's bytes), {@value #FILES_OPENED},
 * and for CSV with {@code ignore_errors} {@value #ROWS_SKIPPED}. Row groups opened are also
 * counted scan-wide, for tests.
 */
public final class ScanCounters {
    public static final String SCANNED_BYTES = "scanned_bytes";
    public static final String FILES_OPENED = "files_opened";
    public static final String ROWS_SKIPPED = "rows_skipped";

    private final PartitionMetrics metrics;
    private final AtomicLong rowGroupsRead;

    public ScanCounters(PartitionMetrics metrics, AtomicLong rowGroupsRead) {
        this.metrics = requireNonNull(metrics, "metrics is null");
        this.rowGroupsRead = requireNonNull(rowGroupsRead, "rowGroupsRead is null");
    }

    public void addBytesRead(long bytes) {
        metrics.addCounter(SCANNED_BYTES, bytes);
    }

    public void addFileOpened() {
        metrics.addCounter(FILES_OPENED, 1);
    }

    public void addRowsSkipped(long rows) {
        metrics.addCounter(ROWS_SKIPPED, rows);
    }

    public void addRowGroupRead() {
        rowGroupsRead.incrementAndGet();
    }
}
