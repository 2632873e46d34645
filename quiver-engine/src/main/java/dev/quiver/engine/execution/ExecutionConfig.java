package dev.quiver.engine.execution;

/**
 * Settings that operators read while executing.
 *
 * @param batchSize rows per batch that operators aim for when they build batches
 * @param targetPartitions partitions per plan stage on one node (defaults to the number of cores)
 */
public record ExecutionConfig(int batchSize, int targetPartitions) {
    public static final int DEFAULT_BATCH_SIZE = 8192;

    public ExecutionConfig {
        if (batchSize < 1) {
            throw new IllegalArgumentException("batchSize must be positive: " + batchSize);
        }
        if (targetPartitions < 1) {
            throw new IllegalArgumentException("targetPartitions must be positive: " + targetPartitions);
        }
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
