package dev.quiver.session;

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
 */
public record SessionSettings(int targetPartitions, int batchSize, long memoryLimit, long collectLeftMaxRows) {
    /** The names {@code SET} accepts. */
    public static final List<String> NAMES = List.of("target_partitions", "batch_size", "memory_limit", "hash_join_collect_left_max_rows");

    public SessionSettings {
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

    /** A copy with setting {@code name} (case-insensitive) parsed from {@code value}. */
    public SessionSettings with(String name, String value) {
        String key = name.toLowerCase(Locale.ROOT);
        return switch (key) {
            case "target_partitions" -> new SessionSettings(parseInt(key, value), batchSize, memoryLimit, collectLeftMaxRows);
            case "batch_size" -> new SessionSettings(targetPartitions, parseInt(key, value), memoryLimit, collectLeftMaxRows);
            case "memory_limit" -> new SessionSettings(targetPartitions, batchSize, parseMemoryLimit(value), collectLeftMaxRows);
            case "hash_join_collect_left_max_rows" -> new SessionSettings(targetPartitions, batchSize, memoryLimit, parseInt(key, value));
            default -> throw new QuiverException(ErrorCode.INVALID_CONFIGURATION,
                    "Unknown setting '" + name + "'; valid settings are " + String.join(", ", NAMES));
        };
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
