package dev.quiver.engine.metrics;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What one partition of one operator measured. Updated live as batches flow (so that a sampler
 * can read {@code output_rows} of a running leaf), read from any thread.
 */
public final class PartitionMetrics {
    private final AtomicLong outputRows = new AtomicLong();
    private final AtomicLong outputBatches = new AtomicLong();
    private final AtomicLong outputBytes = new AtomicLong();
    private final AtomicLong elapsedComputeNanos = new AtomicLong();
    private final AtomicLong peakMemoryBytes = new AtomicLong();

    /** Counts one batch leaving the operator. */
    public void recordOutput(long rows, long bytes) {
        outputRows.addAndGet(rows);
        outputBytes.addAndGet(bytes);
        outputBatches.incrementAndGet();
    }

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
}
