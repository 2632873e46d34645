package dev.quiver.engine.metrics;

import dev.quiver.engine.memory.ByteSize;
import java.util.Locale;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The metrics of one plan node, per output partition: {@code output_rows}, {@code output_bytes},
 * {@code elapsed_compute} and peak memory. Thread-safe.
 *
 * <p>{@code elapsed_compute} is the time the node's own code ran, exclusive of its children and
 * of time blocked waiting for input ({@link PartitionMetrics#WAIT_NANOS}). Summed over the
 * partitions, which run on threads of their own at the same time, it is thread (CPU) time: with
 * two partitions on two cores it can reach twice the wall time, which is why the display gives the
 * partition count and the largest partition's share.
 */
public final class OperatorMetrics {
    private static final String NANOS_SUFFIX = "_nanos";

    private final Map<Integer, PartitionMetrics> partitions = new ConcurrentHashMap<>();

    public PartitionMetrics partition(int partition) {
        return partitions.computeIfAbsent(partition, p -> new PartitionMetrics());
    }

    public SortedMap<Integer, PartitionMetrics> partitions() {
        return new TreeMap<>(partitions);
    }

    public long outputRows() {
        return partitions.values().stream().mapToLong(PartitionMetrics::outputRows).sum();
    }

    public long outputBytes() {
        return partitions.values().stream().mapToLong(PartitionMetrics::outputBytes).sum();
    }

    /** The partitions' compute time summed: thread time, which can exceed the wall time when partitions run in parallel. */
    public long elapsedComputeNanos() {
        return partitions.values().stream().mapToLong(PartitionMetrics::elapsedComputeNanos).sum();
    }

    /** The compute time of the busiest partition: at most the wall time the node's own work took. */
    public long maxPartitionComputeNanos() {
        return partitions.values().stream().mapToLong(PartitionMetrics::elapsedComputeNanos).max().orElse(0);
    }

    /** Time the partitions spent blocked on input that other threads produce, summed ({@link PartitionMetrics#WAIT_NANOS}). */
    public long waitNanos() {
        return partitions.values().stream().mapToLong(partition -> partition.counters().getOrDefault(PartitionMetrics.WAIT_NANOS, 0L)).sum();
    }

    /** The largest peak of any one partition (partitions of a node may run at the same time). */
    public long peakMemoryBytes() {
        return partitions.values().stream().mapToLong(PartitionMetrics::peakMemoryBytes).max().orElse(0);
    }

    /**
     * The sum of the partitions' peaks: at most what the node held at once when its partitions run
     * at the same time, and that much when their peaks coincide (hash tables that grow until the
     * input ends). Memory-sizing decisions compare against this, not the largest partition's peak.
     */
    public long summedPeakMemoryBytes() {
        return partitions.values().stream().mapToLong(PartitionMetrics::peakMemoryBytes).sum();
    }

    /** The partitions' named counts ({@link PartitionMetrics#addCounter}) summed, by name. */
    public SortedMap<String, Long> counters() {
        SortedMap<String, Long> sums = new TreeMap<>();
        partitions.values().forEach(partition -> partition.counters().forEach((name, value) -> sums.merge(name, value, Long::sum)));
        return sums;
    }

    /**
     * {@code , name=value} for each named count; sizes for names ending in {@code bytes}, and
     * milliseconds for names ending in {@code _nanos}, which are shown without the suffix.
     */
    public static String counterSummary(Map<String, Long> counters) {
        StringBuilder line = new StringBuilder();
        counters.forEach((name, value) -> {
            if (name.endsWith(NANOS_SUFFIX)) {
                line.append(", ").append(name, 0, name.length() - NANOS_SUFFIX.length()).append('=').append(millis(value));
            } else {
                line.append(", ").append(name).append('=').append(name.endsWith("bytes") ? ByteSize.formatBytes(value) : Long.toString(value));
            }
        });
        return line.toString();
    }

    /** {@code 12.3ms}: one decimal, as plan display shows times. */
    public static String millis(long nanos) {
        return String.format(Locale.ROOT, "%.1fms", nanos / 1e6);
    }

    public boolean isEmpty() {
        return partitions.isEmpty();
    }

    /**
     * One line for plan display: {@code output_rows=10, output_bytes=1.2 KiB, elapsed_compute=3.1ms},
     * with {@code elapsed_compute=5.0ms (sum of 2 partitions, max 2.6ms)} when several partitions ran.
     */
    public String summary() {
        StringBuilder line = new StringBuilder()
                .append("output_rows=").append(outputRows())
                .append(", output_bytes=").append(ByteSize.formatBytes(outputBytes()))
                .append(", elapsed_compute=").append(millis(elapsedComputeNanos()));
        if (partitions.size() > 1) {
            line.append(" (sum of ").append(partitions.size()).append(" partitions, max ").append(millis(maxPartitionComputeNanos())).append(')');
        }
        long peak = peakMemoryBytes();
        if (peak > 0) {
            line.append(", peak_mem=").append(dev.quiver.engine.memory.ByteSize.formatBytes(peak));
        }
        return line.append(counterSummary(counters())).toString();
    }
}
