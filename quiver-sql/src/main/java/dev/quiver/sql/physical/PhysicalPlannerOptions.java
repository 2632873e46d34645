package dev.quiver.sql.physical;

import dev.quiver.engine.config.EngineSettings;
import dev.quiver.engine.config.Settings;

/**
 * Choices the physical planner makes from configuration.
 *
 * @param targetPartitions partitions per stage: scans are asked for this many, and hash
 *     repartitions produce this many
 * @param collectLeftMaxRows a hash join whose (smaller) build side is estimated at no more rows
 *     than this collects it once and shares it with every probe partition; above it, both sides
 *     are hash-partitioned on the join keys
 */
public record PhysicalPlannerOptions(int targetPartitions, long collectLeftMaxRows) {
    public static final long DEFAULT_COLLECT_LEFT_MAX_ROWS = 100_000;

    public PhysicalPlannerOptions {
        if (targetPartitions < 1) {
            throw new IllegalArgumentException("targetPartitions must be positive: " + targetPartitions);
        }
        if (collectLeftMaxRows < 0) {
            throw new IllegalArgumentException("collectLeftMaxRows must not be negative: " + collectLeftMaxRows);
        }
    }

    /** The options a session's {@code settings} choose ({@code target_partitions}, {@code hash_join_collect_left_max_rows}). */
    public static PhysicalPlannerOptions from(Settings settings) {
        return new PhysicalPlannerOptions(settings.get(EngineSettings.TARGET_PARTITIONS), settings.get(SqlSettings.HASH_JOIN_COLLECT_LEFT_MAX_ROWS));
    }

    public static PhysicalPlannerOptions withTargetPartitions(int targetPartitions) {
        return new PhysicalPlannerOptions(targetPartitions, DEFAULT_COLLECT_LEFT_MAX_ROWS);
    }
}
