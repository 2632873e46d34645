package dev.quiver.session;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.compression.ExchangeCompression;
import dev.quiver.distributed.plan.DistributedPlannerSettings;
import dev.quiver.distributed.protocol.HeartbeatSettings;
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
 * @param dynamicTaskCount choose task counts at run time from samples (AQE, DESIGN §5)
 * @param dynamicBytesPerPartition AQE's cost budget per output partition (docs/aqe.md, "Task count")
 * @param maxTasksPerStage the hard limit on a stage's tasks; 0 means the number of workers
 * @param bytesPerPartitionForScans how many bytes of a scanned source one task partition should read
 * @param broadcastJoins whether joins whose type allows it may broadcast their build side
 * @param compression the codec of data streams between workers
 * @param collectMetrics whether the final plan keeps the tasks' operator metrics (the coordinator drops them when false)
 * @param sampleBytesPerPartition how much AQE's samplers pull per partition before reporting
 * @param heartbeatIntervalMs how often both ends of a task's control stream send heartbeats
 * @param heartbeatTimeoutMs how long a silent control stream is tolerated before its task counts as lost
 */
public record DistributedSettings(boolean dynamicTaskCount, long dynamicBytesPerPartition, int maxTasksPerStage, long bytesPerPartitionForScans,
        boolean broadcastJoins, ExchangeCompression compression, boolean collectMetrics, long sampleBytesPerPartition, long heartbeatIntervalMs,
        long heartbeatTimeoutMs) {
    /** The names (after the {@code distributed.} prefix) that {@code SET} accepts. */
    public static final List<String> NAMES = List.of("dynamic_task_count", "dynamic_bytes_per_partition", "max_tasks_per_stage",
            "bytes_per_partition_for_scans", "broadcast_joins", "compression", "collect_metrics", "sample_bytes_per_partition", "heartbeat_interval_ms",
            "heartbeat_timeout_ms");
    public static final String PREFIX = "distributed.";
    private static final long MIB = 1L << 20;

    public DistributedSettings {
        requireNonNull(compression, "compression is null");
        if (maxTasksPerStage < 0) {
            throw invalid("distributed.max_tasks_per_stage must be 0 (the number of workers) or more, not " + maxTasksPerStage);
        }
        if (dynamicBytesPerPartition < 1 || bytesPerPartitionForScans < 1 || sampleBytesPerPartition < 1) {
            throw invalid("distributed byte sizes must be positive: dynamic_bytes_per_partition=" + dynamicBytesPerPartition
                    + ", bytes_per_partition_for_scans=" + bytesPerPartitionForScans + ", sample_bytes_per_partition=" + sampleBytesPerPartition);
        }
        if (heartbeatIntervalMs < 1 || heartbeatTimeoutMs <= heartbeatIntervalMs) {
            throw invalid("distributed.heartbeat_interval_ms must be positive and below distributed.heartbeat_timeout_ms: " + heartbeatIntervalMs
                    + " ms, " + heartbeatTimeoutMs + " ms");
        }
    }

    public static DistributedSettings defaults() {
        return new DistributedSettings(false, 16 * MIB, 0, DistributedPlannerSettings.DEFAULT_BYTES_PER_PARTITION_FOR_SCANS, true, ExchangeCompression.LZ4,
                true, MIB, HeartbeatSettings.DEFAULT.interval().toMillis(), HeartbeatSettings.DEFAULT.timeout().toMillis());
    }

    /** Whether {@code name} is one of these settings ({@code distributed.} prefix, any case). */
    public static boolean isDistributed(String name) {
        return name.toLowerCase(Locale.ROOT).startsWith(PREFIX);
    }

    /** A copy with {@code name} ({@code distributed.x}, any case) parsed from {@code value}. */
    public DistributedSettings with(String name, String value) {
        String key = name.toLowerCase(Locale.ROOT).substring(PREFIX.length());
        if (!NAMES.contains(key)) {
            throw invalid("Unknown setting '" + name + "'; valid distributed settings are "
                    + String.join(", ", NAMES.stream().map(n -> PREFIX + n).toList()));
        }
        Map<String, String> values = asMap();
        values.put(PREFIX + key, value);
        return parse(values);
    }

    /** The settings {@link #asMap} wrote (every name present). */
    private static DistributedSettings parse(Map<String, String> values) {
        return new DistributedSettings(
                parseBoolean(values, "dynamic_task_count"),
                parseBytes(values, "dynamic_bytes_per_partition"),
                (int) parseLong(values, "max_tasks_per_stage"),
                parseBytes(values, "bytes_per_partition_for_scans"),
                parseBoolean(values, "broadcast_joins"),
                ExchangeCompression.parse(values.get(PREFIX + "compression")),
                parseBoolean(values, "collect_metrics"),
                parseBytes(values, "sample_bytes_per_partition"),
                parseLong(values, "heartbeat_interval_ms"),
                parseLong(values, "heartbeat_timeout_ms"));
    }

    /** Every setting by its full name, as {@code SET} would write it. */
    public Map<String, String> asMap() {
        Map<String, String> map = new LinkedHashMap<>();
        map.put(PREFIX + "dynamic_task_count", Boolean.toString(dynamicTaskCount));
        map.put(PREFIX + "dynamic_bytes_per_partition", Long.toString(dynamicBytesPerPartition));
        map.put(PREFIX + "max_tasks_per_stage", Integer.toString(maxTasksPerStage));
        map.put(PREFIX + "bytes_per_partition_for_scans", Long.toString(bytesPerPartitionForScans));
        map.put(PREFIX + "broadcast_joins", Boolean.toString(broadcastJoins));
        map.put(PREFIX + "compression", compression.name().toLowerCase(Locale.ROOT));
        map.put(PREFIX + "collect_metrics", Boolean.toString(collectMetrics));
        map.put(PREFIX + "sample_bytes_per_partition", Long.toString(sampleBytesPerPartition));
        map.put(PREFIX + "heartbeat_interval_ms", Long.toString(heartbeatIntervalMs));
        map.put(PREFIX + "heartbeat_timeout_ms", Long.toString(heartbeatTimeoutMs));
        return map;
    }

    private static boolean parseBoolean(Map<String, String> values, String key) {
        String value = values.get(PREFIX + key);
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "true", "on", "1" -> true;
            case "false", "off", "0" -> false;
            default -> throw invalid(PREFIX + key + " must be true or false, not '" + value + "'");
        };
    }

    private static long parseLong(Map<String, String> values, String key) {
        String value = values.get(PREFIX + key);
        try {
            long parsed = Long.parseLong(value.trim());
            if (parsed > Integer.MAX_VALUE || parsed < Integer.MIN_VALUE) {
                throw new NumberFormatException();
            }
            return parsed;
        } catch (NumberFormatException e) {
            throw invalid(PREFIX + key + " must be a whole number, not '" + value + "'");
        }
    }

    private static long parseBytes(Map<String, String> values, String key) {
        String value = values.get(PREFIX + key);
        try {
            return ByteSize.parseBytes(value.trim());
        } catch (QuiverException e) {
            throw invalid(PREFIX + key + " must be a size such as '16MiB' or '65536', not '" + value + "'");
        }
    }

    private static QuiverException invalid(String message) {
        return new QuiverException(ErrorCode.INVALID_CONFIGURATION, message);
    }
}
