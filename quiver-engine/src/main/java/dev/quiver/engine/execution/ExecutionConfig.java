package dev.quiver.engine.execution;

import dev.quiver.engine.config.EngineSettings;
import dev.quiver.engine.config.Settings;

/**
 * Settings that operators read while executing.
 *
 * @param batchSize rows per batch that operators aim for when they build batches
 * @param targetPartitions partitions per plan stage on one node (defaults to the number of cores)
 */
public record ExecutionConfig(int batchSize, int targetPartitions) {
    public static final int DEFAULT_BATCH_SIZE = EngineSettings.BATCH_SIZE.defaultValue();

    public ExecutionConfig {
        // the settings' own checks: a bad value fails as SET would, naming the setting
        EngineSettings.BATCH_SIZE.check(batchSize);
        EngineSettings.TARGET_PARTITIONS.check(targetPartitions);
    }

    /** What operators read while executing, from a session's (or a task's) {@code settings}. */
    public static ExecutionConfig of(Settings settings) {
        return new ExecutionConfig(settings.get(EngineSettings.BATCH_SIZE), settings.get(EngineSettings.TARGET_PARTITIONS));
    }

    public static ExecutionConfig defaults() {
        return new ExecutionConfig(DEFAULT_BATCH_SIZE, Runtime.getRuntime().availableProcessors());
    }

    public ExecutionConfig withTargetPartitions(int partitions) {
        return new ExecutionConfig(batchSize, partitions);
    }

    public ExecutionConfig withBatchSize(int rows) {
        return new ExecutionConfig(rows, targetPartitions);
    }
}
