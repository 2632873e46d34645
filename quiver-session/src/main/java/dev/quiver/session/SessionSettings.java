package dev.quiver.session;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.memory.ByteSize;
import dev.quiver.sql.physical.PhysicalPlannerOptions;
import java.util.List;
import java.util.Locale;

/**
 * The settings of a {@link QuerySession} that {@code SET name = value} changes.
 *
 * @param targetPartitions partitions per plan stage ({@code target_partitions})
 * @param batchSize rows per batch ({@code batch_size})
 * @param memoryLimit bytes the session's memory pool may hand out; {@link Long#MAX_VALUE} is
 *     unlimited ({@code memory_limit}, e.g. {@code '2GiB'} or {@code 'unlimited'})
 * @param collectLeftMaxRows hash joins whose build side is estimated at no more rows than this
 *     collect it once and share it; larger ones hash-partition both sides
 *     ({@code hash_join_collect_left_max_rows})
 * @param distributed the {@code distributed.*} settings, used when the session has workers
 * @param explainFormat how {@code EXPLAIN} renders a distributed plan ({@code explain_format}: text or dot)
 */
public record SessionSettings(int targetPartitions, int batchSize, long memoryLimit, long collectLeftMaxRows, DistributedSettings distributed,
        ExplainFormat explainFormat) {
    /** The names {@code SET} accepts, besides {@code distributed.*} ({@link DistributedSettings#NAMES}). */
    public static final List<String> NAMES = List.of("target_partitions", "batch_size", "memory_limit", "hash_join_collect_left_max_rows",
            "explain_format");

    /** How EXPLAIN shows a distributed plan: indented text, or Graphviz DOT. */
    public enum ExplainFormat {
        TEXT, DOT
    }

    public SessionSettings {
        requireNonNull(distributed, "distributed is null");
        requireNonNull(explainFormat, "explainFormat is null");
        if (targetPartitions < 1) {
            throw new QuiverException(ErrorCode.INVALID_CONFIGURATION, "target_partitions must be at least 1, not " + targetPartitions);
        }
        if (batchSize < 1) {
            throw new QuiverException(ErrorCode.INVALID_CONFIGURATION, "batch_size must be at least 1, not " + batchSize);
        }
        if (memoryLimit < 1) {
            throw new QuiverException(ErrorCode.INVALID_CONFIGURATION, "memory_limit must be positive, not " + memoryLimit);
        }
        if (collectLeftMaxRows < 0) {
            throw new QuiverException(ErrorCode.INVALID_CONFIGURATION, "hash_join_collect_left_max_rows must not be negative, not " + collectLeftMaxRows);
        }
    }

    /** Settings with the default hash-join threshold. */
    public SessionSettings(int targetPartitions, int batchSize, long memoryLimit) {
        this(targetPartitions, batchSize, memoryLimit, PhysicalPlannerOptions.DEFAULT_COLLECT_LEFT_MAX_ROWS);
    }

    /** Settings with the default distributed settings and text EXPLAIN. */
    public SessionSettings(int targetPartitions, int batchSize, long memoryLimit, long collectLeftMaxRows) {
        this(targetPartitions, batchSize, memoryLimit, collectLeftMaxRows, DistributedSettings.defaults(), ExplainFormat.TEXT);
    }

    public SessionSettings withDistributed(DistributedSettings settings) {
        return new SessionSettings(targetPartitions, batchSize, memoryLimit, collectLeftMaxRows, settings, explainFormat);
    }

    /** A copy with setting {@code name} (case-insensitive) parsed from {@code value}. */
    public SessionSettings with(String name, String value) {
        String key = name.toLowerCase(Locale.ROOT);
        if (DistributedSettings.isDistributed(key)) {
            return withDistributed(distributed.with(key, value));
        }
        return switch (key) {
            case "target_partitions" -> new SessionSettings(parseInt(key, value), batchSize, memoryLimit, collectLeftMaxRows, distributed, explainFormat);
            case "batch_size" -> new SessionSettings(targetPartitions, parseInt(key, value), memoryLimit, collectLeftMaxRows, distributed, explainFormat);
            case "memory_limit" -> new SessionSettings(targetPartitions, batchSize, parseMemoryLimit(value), collectLeftMaxRows, distributed, explainFormat);
            case "hash_join_collect_left_max_rows" -> new SessionSettings(targetPartitions, batchSize, memoryLimit, parseInt(key, value), distributed,
                    explainFormat);
            case "explain_format" -> new SessionSettings(targetPartitions, batchSize, memoryLimit, collectLeftMaxRows, distributed,
                    parseExplainFormat(value));
            default -> throw new QuiverException(ErrorCode.INVALID_CONFIGURATION,
                    "Unknown setting '" + name + "'; valid settings are " + String.join(", ", NAMES) + " and distributed.* ("
                    + String.join(", ", DistributedSettings.NAMES) + ")");
        };
    }

    private static ExplainFormat parseExplainFormat(String value) {
        try {
            return ExplainFormat.valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new QuiverException(ErrorCode.INVALID_CONFIGURATION, "explain_format must be text or dot, not '" + value + "'");
        }
    }

    private static int parseInt(String name, String value) {
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new QuiverException(ErrorCode.INVALID_CONFIGURATION, name + " must be a whole number, not '" + value + "'");
        }
    }

    private static long parseMemoryLimit(String value) {
        String text = value.trim();
        if (text.equalsIgnoreCase("unlimited") || text.equalsIgnoreCase("none")) {
            return Long.MAX_VALUE;
        }
        try {
            return ByteSize.parseBytes(text);
        } catch (QuiverException e) {
            throw new QuiverException(ErrorCode.INVALID_CONFIGURATION,
                    "memory_limit must be a size such as '512MiB' or '2GiB', or 'unlimited', not '" + value + "'");
        }
    }
}
