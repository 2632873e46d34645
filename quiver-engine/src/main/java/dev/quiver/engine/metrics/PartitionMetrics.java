package dev.quiver.engine.metrics;

import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What one partition of one operator measured. Updated live as batches flow (so that a sampler
 * can read {@code output_rows} of a running leaf, and whether it has reached its end), read from
 * any thread.
 */
public final class PartitionMetrics {
    /**
     * The named count of the nanoseconds a partition's thread spent blocked on input that other
     * threads produce (an exchange's queue, a remote stage's stream); shown as {@code wait}.
     */
    public static final String WAIT_NANOS = "wait_nanos";

    private final AtomicLong outputRows = new AtomicLong();
    private final AtomicLong outputBatches = new AtomicLong();
    private final AtomicLong outputBytes = new AtomicLong();
    private final AtomicLong elapsedComputeNanos = new AtomicLong();
    private final AtomicLong peakMemoryBytes = new AtomicLong();
    private final AtomicLong pendingOutputRows = new AtomicLong(-1);
    private final Map<String, AtomicLong> counters = new ConcurrentHashMap<>();
    private volatile boolean endOfStream;

    /** Counts one batch leaving the operator. */
    public void recordOutput(long rows, long bytes) {
        outputRows.addAndGet(rows);
        outputBytes.addAndGet(bytes);
        outputBatches.incrementAndGet();
    }

    /** The partition's stream returned its end (null): every row it will output has been counted. */
    public void recordEndOfStream() {
        endOfStream = true;
    }

    /**
     * Rows the partition holds and will still output: a blocking operator's groups or sorted rows
     * not yet emitted. Set by the operator after each batch it returns; -1 (the default) when the
     * operator does not say. With the rows output so far it tells how much a blocking operator's
     * output is still to come (a sampler cut short while it emits).
     */
    public void setPendingOutputRows(long rows) {
        pendingOutputRows.set(rows);
    }

    /**
     * Adds to a named count of what the operator did besides its output, shown after the standard
     * metrics: a scan's {@code bytes_scanned} and {@code files_opened}, a CSV scan's
     * {@code rows_skipped}. Names ending in {@code bytes} are shown as sizes, names ending in
     * {@code _nanos} as milliseconds without the suffix ({@link #WAIT_NANOS} as {@code wait=1.5ms}).
     */
    public void addCounter(String name, long delta) {
        counters.computeIfAbsent(name, n -> new AtomicLong()).addAndGet(delta);
    }

    /** The named counts, by name. */
    public SortedMap<String, Long> counters() {
        SortedMap<String, Long> values = new TreeMap<>();
        counters.forEach((name, value) -> values.put(name, value.get()));
        return values;
    }

    /** Adds to {@link #WAIT_NANOS}: time blocked on input that other threads produce, not counted as compute. */
    public void addWait(long nanos) {
        addCounter(WAIT_NANOS, nanos);
    }

    /**
     * Adds time this operator spent on its own work (not pulling its input, not waiting):
     * {@code elapsed_compute} is exclusive of the operator's children.
     */
    public void addElapsedCompute(long nanos) {
        elapsedComputeNanos.addAndGet(nanos);
    }

    public void recordMemory(long bytes) {
        peakMemoryBytes.accumulateAndGet(bytes, Math::max);
    }

    public long outputRows() {
        return outputRows.get();
    }

    public long outputBatches() {
        return outputBatches.get();
    }

    public long outputBytes() {
        return outputBytes.get();
    }

    public long elapsedComputeNanos() {
        return elapsedComputeNanos.get();
    }

    public long peakMemoryBytes() {
        return peakMemoryBytes.get();
    }

    /** See {@link #setPendingOutputRows}; -1 when the operator does not say. */
    public long pendingOutputRows() {
        return pendingOutputRows.get();
    }

    /** Whether the partition's stream has returned its end; false while it runs, or when it was closed before its end. */
    public boolean endOfStream() {
        return endOfStream;
    }
}
