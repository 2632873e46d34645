package dev.quiver.session;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.memory.ByteSize;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The {@code distributed.*} settings (DESIGN §4), set with {@code SET distributed.x = v}, the CLI's
 * {@code --set distributed.x=v} or the typed methods of {@link QuerySession.Builder}. They matter
 * only when the session has workers.
 *
 * @param dynamicTaskCount choose task counts at run time from samples (AQE); not built yet, so
 *     {@code true} fails queries with NOT_SUPPORTED
 * @param dynamicBytesPerPartition AQE's bytes per partition target (stored for AQE)
 * @param maxTasksPerStage the hard limit on a stage's tasks; 0 means the number of workers
 * @param bytesPerPartitionForScans how many bytes of a scanned source one task partition should read
 * @param broadcastJoins whether joins whose type allows it may broadcast their build side
 * @param compression the codec of data streams between workers
 * @param collectMetrics whether workers send their tasks' operator metrics at the end
 * @param sampleBytesPerPartition how much AQE's samplers pull per partition (stored for AQE)
 */
public record DistributedSettings(boolean dynamicTaskCount, long dynamicBytesPerPartition, int maxTasksPerStage, long bytesPerPartitionForScans,
        boolean broadcastJoins, Compression compression, boolean collectMetrics, long sampleBytesPerPartition) {
    /** The names (after the {@code distributed.} prefix) that {@code SET} accepts. */
    public static final List<String> NAMES = List.of("dynamic_task_count", "dynamic_bytes_per_partition", "max_tasks_per_stage",
            "bytes_per_partition_for_scans", "broadcast_joins", "compression", "collect_metrics", "sample_bytes_per_partition");
    public static final String PREFIX = "distributed.";
    private static final long MIB = 1L << 20;

    /** The codec of data streams between workers. */
    public enum Compression {
        LZ4, ZSTD, NONE;

        /** The setting's text, e.g. {@code lz4}. */
        public String settingValue() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public DistributedSettings {
        requireNonNull(compression, "compression is null");
        if (maxTasksPerStage < 0) {
            throw invalid("distributed.max_tasks_per_stage must be 0 (the number of workers) or more, not " + maxTasksPerStage);
        }
        if (dynamicBytesPerPartition < 1 || bytesPerPartitionForScans < 1 || sampleBytesPerPartition < 1) {
            throw invalid("distributed byte sizes must be positive: dynamic_bytes_per_partition=" + dynamicBytesPerPartition
                    + ", bytes_per_partition_for_scans=" + bytesPerPartitionForScans + ", sample_bytes_per_partition=" + sampleBytesPerPartition);
        }
    }

    public static DistributedSettings defaults() {
        return new DistributedSettings(false, 16 * MIB, 0, 16 * MIB, true, Compression.LZ4, true, MIB);
    }

    /** Whether {@code name} is one of these settings ({@code distributed.} prefix, any case). */
    public static boolean isDistributed(String name) {
        return name.toLowerCase(Locale.ROOT).startsWith(PREFIX);
    }

    /** A copy with {@code name} ({@code distributed.x}, any case) parsed from {@code value}. */
    public DistributedSettings with(String name, String value) {
        String key = name.toLowerCase(Locale.ROOT).substring(PREFIX.length());
        String full = PREFIX + key;
        return switch (key) {
            case "dynamic_task_count" -> new DistributedSettings(parseBoolean(full, value), dynamicBytesPerPartition, maxTasksPerStage,
                    bytesPerPartitionForScans, broadcastJoins, compression, collectMetrics, sampleBytesPerPartition);
            case "dynamic_bytes_per_partition" -> new DistributedSettings(dynamicTaskCount, parseBytes(full, value), maxTasksPerStage,
                    bytesPerPartitionForScans, broadcastJoins, compression, collectMetrics, sampleBytesPerPartition);
            case "max_tasks_per_stage" -> new DistributedSettings(dynamicTaskCount, dynamicBytesPerPartition, parseInt(full, value),
                    bytesPerPartitionForScans, broadcastJoins, compression, collectMetrics, sampleBytesPerPartition);
            case "bytes_per_partition_for_scans" -> new DistributedSettings(dynamicTaskCount, dynamicBytesPerPartition, maxTasksPerStage,
                    parseBytes(full, value), broadcastJoins, compression, collectMetrics, sampleBytesPerPartition);
            case "broadcast_joins" -> new DistributedSettings(dynamicTaskCount, dynamicBytesPerPartition, maxTasksPerStage,
                    bytesPerPartitionForScans, parseBoolean(full, value), compression, collectMetrics, sampleBytesPerPartition);
            case "compression" -> new DistributedSettings(dynamicTaskCount, dynamicBytesPerPartition, maxTasksPerStage,
                    bytesPerPartitionForScans, broadcastJoins, parseCompression(value), collectMetrics, sampleBytesPerPartition);
            case "collect_metrics" -> new DistributedSettings(dynamicTaskCount, dynamicBytesPerPartition, maxTasksPerStage,
                    bytesPerPartitionForScans, broadcastJoins, compression, parseBoolean(full, value), sampleBytesPerPartition);
            case "sample_bytes_per_partition" -> new DistributedSettings(dynamicTaskCount, dynamicBytesPerPartition, maxTasksPerStage,
                    bytesPerPartitionForScans, broadcastJoins, compression, collectMetrics, parseBytes(full, value));
            default -> throw invalid("Unknown setting '" + name + "'; valid distributed settings are "
                    + String.join(", ", NAMES.stream().map(n -> PREFIX + n).toList()));
        };
    }

    /** Every setting by its full name, as {@code SET} would write it. */
    public Map<String, String> asMap() {
        Map<String, String> map = new LinkedHashMap<>();
        map.put(PREFIX + "dynamic_task_count", Boolean.toString(dynamicTaskCount));
        map.put(PREFIX + "dynamic_bytes_per_partition", Long.toString(dynamicBytesPerPartition));
        map.put(PREFIX + "max_tasks_per_stage", Integer.toString(maxTasksPerStage));
        map.put(PREFIX + "bytes_per_partition_for_scans", Long.toString(bytesPerPartitionForScans));
        map.put(PREFIX + "broadcast_joins", Boolean.toString(broadcastJoins));
        map.put(PREFIX + "compression", compression.settingValue());
        map.put(PREFIX + "collect_metrics", Boolean.toString(collectMetrics));
        map.put(PREFIX + "sample_bytes_per_partition", Long.toString(sampleBytesPerPartition));
        return map;
    }

    private static boolean parseBoolean(String name, String value) {
        String text = value.trim().toLowerCase(Locale.ROOT);
        return switch (text) {
            case "true", "on", "1" -> true;
            case "false", "off", "0" -> false;
            default -> throw invalid(name + " must be true or false, not '" + value + "'");
        };
    }

    private static int parseInt(String name, String value) {
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw invalid(name + " must be a whole number, not '" + value + "'");
        }
    }

    private static long parseBytes(String name, String value) {
        try {
            return ByteSize.parseBytes(value.trim());
        } catch (QuiverException e) {
            throw invalid(name + " must be a size such as '16MiB' or '65536', not '" + value + "'");
        }
    }

    private static Compression parseCompression(String value) {
        try {
            return Compression.valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw invalid("distributed.compression must be lz4, zstd or none, not '" + value + "'");
        }
    }

    private static QuiverException invalid(String message) {
        return new QuiverException(ErrorCode.INVALID_CONFIGURATION, message);
    }
}
