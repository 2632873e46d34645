package dev.quiver.sql.physical;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.config.DivisionByZero;
import dev.quiver.engine.config.EngineSettings;
import dev.quiver.engine.config.Settings;

/**
 * Choices the physical planner makes from configuration: the session's typed settings, which hold
 * at least the engine's and {@link SqlSettings}'. The accessors name the settings the planner reads;
 * a planner pass reads any other with {@code options.settings().get(...)}, so that a new one is
 * only its declaration.
 *
 * @param settings the session's settings
 */
public record PhysicalPlannerOptions(Settings settings) {
    public PhysicalPlannerOptions {
        requireNonNull(settings, "settings is null");
        // fails at once (INTERNAL_ERROR) when the settings lack the ones the planner reads
        settings.get(SqlSettings.HASH_JOIN_COLLECT_LEFT_MAX_ROWS);
        settings.get(EngineSettings.TARGET_PARTITIONS);
        settings.get(EngineSettings.DIVISION_BY_ZERO);
    }

    /** The options a session's {@code settings} choose. */
    public static PhysicalPlannerOptions from(Settings settings) {
        return new PhysicalPlannerOptions(settings);
    }

    /** Partitions per stage: scans are asked for this many, and hash repartitions produce this many ({@code target_partitions}). */
    public int targetPartitions() {
        return settings.get(EngineSettings.TARGET_PARTITIONS);
    }

    /** What a division or remainder by zero gives ({@code division_by_zero}). */
    public DivisionByZero divisionByZero() {
        return settings.get(EngineSettings.DIVISION_BY_ZERO);
    }

    /**
     * A hash join whose (smaller) build side is estimated at no more rows than this collects it once
     * and shares it with every probe partition; above it, both sides are hash-partitioned on the join
     * keys ({@code hash_join_collect_left_max_rows}).
     */
    public long collectLeftMaxRows() {
        return settings.get(SqlSettings.HASH_JOIN_COLLECT_LEFT_MAX_ROWS);
    }
}
