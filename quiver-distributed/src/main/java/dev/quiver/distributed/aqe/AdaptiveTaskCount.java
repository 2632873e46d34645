package dev.quiver.distributed.aqe;

import dev.quiver.distributed.config.DistributedSettings;
import dev.quiver.distributed.plan.TaskCountHint;
import dev.quiver.engine.memory.ByteSize;

/**
 * The task count AQE wants for a stage from its cost (DESIGN §5 step 2):
 * {@code Desired(clamp(ceil(ceil(cost / dynamic_bytes_per_partition) / P), 1, max))}. The origin
 * carries the whole computation, so that plans and events say why a stage got its task count.
 * The caller merges it with the stage's other hints ({@code TaskCountHints.merge}).
 */
public final class AdaptiveTaskCount {
    /** The setting that gives the per-partition budget, as origins name it. */
    public static final String BUDGET_SETTING = DistributedSettings.DYNAMIC_BYTES_PER_PARTITION.name();

    private AdaptiveTaskCount() {}

    /**
     * @param costBytes the stage's cost ({@link StageCost#costBytes()})
     * @param bytesPerPartition {@code distributed.dynamic_bytes_per_partition}
     * @param partitionsPerTask {@code P} of the stage
     * @param maxTasks the effective {@code max_tasks_per_stage} (the worker count when the setting is 0)
     */
    public static TaskCountHint.Desired desired(long costBytes, long bytesPerPartition, int partitionsPerTask, int maxTasks) {
        if (costBytes < 0) {
            throw new IllegalArgumentException("cost must not be negative: " + costBytes);
        }
        if (bytesPerPartition < 1) {
            throw new IllegalArgumentException(BUDGET_SETTING + " must be at least 1 byte: " + bytesPerPartition);
        }
        if (partitionsPerTask < 1 || maxTasks < 1) {
            throw new IllegalArgumentException("partitions per task and the task limit must be at least 1: " + partitionsPerTask + ", " + maxTasks);
        }
        long partitions = ceilDiv(costBytes, bytesPerPartition);
        long wanted = ceilDiv(partitions, partitionsPerTask);
        long tasks = Math.max(1, Math.min(wanted, maxTasks));
        String origin = "cost " + ByteSize.formatBytes(costBytes) + " / " + ByteSize.formatBytes(bytesPerPartition) + " per partition (" + BUDGET_SETTING
                + ") = " + partitions + (partitions == 1 ? " partition" : " partitions") + " / P=" + partitionsPerTask + " → " + wanted
                + (wanted == 1 ? " task" : " tasks");
        if (wanted > maxTasks) {
            origin += ", clamped to the limit of " + maxTasks + " tasks per stage";
        } else if (wanted < 1) {
            origin += ", at least 1 task";
        }
        return TaskCountHint.desired((int) tasks, origin);
    }

    private static long ceilDiv(long a, long b) {
        return -Math.floorDiv(-a, b);
    }
}
