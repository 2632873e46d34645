package dev.quiver.engine.metrics;

import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The metrics of one plan node, per output partition: {@code output_rows}, {@code output_bytes},
 * {@code elapsed_compute} and peak memory. Thread-safe.
 */
public final class OperatorMetrics {
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

    public long elapsedComputeNanos() {
        return partitions.values().stream().mapToLong(PartitionMetrics::elapsedComputeNanos).sum();
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

    /** {@code , name=value} for each named count; sizes for names ending in {@code bytes}. */
    public static String counterSummary(Map<String, Long> counters) {
        StringBuilder line = new StringBuilder();
        counters.forEach((name, value) -> line.append(", ").append(name).append('=')
                .append(name.endsWith("bytes") ? dev.quiver.engine.memory.ByteSize.formatBytes(value) : Long.toString(value)));
        return line.toString();
    }

    public boolean isEmpty() {
        return partitions.isEmpty();
    }

    /** One line for plan display: {@code output_rows=10, output_bytes=1.2 KiB, elapsed_compute=3ms}. */
    public String summary() {
        StringBuilder line = new StringBuilder()
                .append("output_rows=").append(outputRows())
                .append(", output_bytes=").append(dev.quiver.engine.memory.ByteSize.formatBytes(outputBytes()))
                .append(", elapsed_compute=").append(elapsedComputeNanos() / 1_000_000).append("ms");
        long peak = peakMemoryBytes();
        if (peak > 0) {
            line.append(", peak_mem=").append(dev.quiver.engine.memory.ByteSize.formatBytes(peak));
        }
        return line.append(counterSummary(counters())).toString();
    }
}
