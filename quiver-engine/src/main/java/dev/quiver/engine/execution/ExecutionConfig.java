package dev.quiver.engine.execution;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.config.EngineSettings;
import dev.quiver.engine.config.Settings;

/**
 * The settings operators read while executing: a session's (or, on a worker, a task's) typed
 * {@link Settings}, which hold at least {@link EngineSettings}'. {@link #batchSize()} and
 * {@link #targetPartitions()} name the two every operator needs; an operator reads any other setting
 * with {@link TaskContext#setting} ({@code context.setting(EngineSettings.X)}), so a new one is only
 * its declaration. The two are read once here: operators ask for the batch size per batch. Immutable.
 */
public final class ExecutionConfig {
    public static final int DEFAULT_BATCH_SIZE = EngineSettings.BATCH_SIZE.defaultValue();

    private final Settings settings;
    private final int batchSize;
    private final int targetPartitions;

    /** @param settings the settings of the session or task; they must hold the engine's */
    public ExecutionConfig(Settings settings) {
        this.settings = requireNonNull(settings, "settings is null");
        this.batchSize = settings.get(EngineSettings.BATCH_SIZE);
        this.targetPartitions = settings.get(EngineSettings.TARGET_PARTITIONS);
    }

    /** The engine's settings at their defaults but these two; a bad value fails as SET would, naming the setting. */
    public ExecutionConfig(int batchSize, int targetPartitions) {
        this(EngineSettings.REGISTRY.defaults().with(EngineSettings.BATCH_SIZE, batchSize).with(EngineSettings.TARGET_PARTITIONS, targetPartitions));
    }

    /** What operators read while executing, from a session's (or a task's) {@code settings}. */
    public static ExecutionConfig of(Settings settings) {
        return new ExecutionConfig(settings);
    }

    public static ExecutionConfig defaults() {
        return new ExecutionConfig(EngineSettings.REGISTRY.defaults());
    }

    /** Rows per batch that operators aim for when they build batches ({@code batch_size}). */
    public int batchSize() {
        return batchSize;
    }

    /** Partitions per plan stage on one node ({@code target_partitions}; defaults to the number of cores). */
    public int targetPartitions() {
        return targetPartitions;
    }

    /** Every setting of the session or task, typed. */
    public Settings settings() {
        return settings;
    }

    public ExecutionConfig withTargetPartitions(int partitions) {
        return new ExecutionConfig(settings.with(EngineSettings.TARGET_PARTITIONS, partitions));
    }

    public ExecutionConfig withBatchSize(int rows) {
        return new ExecutionConfig(settings.with(EngineSettings.BATCH_SIZE, rows));
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ExecutionConfig that && settings.equals(that.settings);
    }

    @Override
    public int hashCode() {
        return settings.hashCode();
    }

    @Override
    public String toString() {
        return "ExecutionConfig[batchSize=" + batchSize + ", targetPartitions=" + targetPartitions + "]";
    }
}
