package dev.quiver.distributed.plan;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.config.DistributedSettings;
import dev.quiver.engine.config.EngineSettings;
import dev.quiver.engine.config.Settings;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;

/**
 * What the distributed planner (and a {@link TaskEstimator}) knows about the cluster and the
 * session (DESIGN §4): the worker count, and the session's settings, typed. The accessors name the
 * settings the planner reads; any other is {@code settings().get(...)}.
 *
 * @param workerCount the workers the query may use (W), at least 1
 * @param settings the session's settings; their registry holds at least {@link DistributedSettings#TASK_REGISTRY}'s
 */
public record DistributedPlannerSettings(int workerCount, Settings settings) {
    public DistributedPlannerSettings {
        requireNonNull(settings, "settings is null");
        if (workerCount < 1) {
            throw new QuiverException(ErrorCode.INVALID_CONFIGURATION, "a distributed query needs at least one worker, not " + workerCount);
        }
    }

    /** The defaults of DESIGN §4 for {@code workerCount} workers and P = {@code targetPartitions}. */
    public static DistributedPlannerSettings defaults(int workerCount, int targetPartitions) {
        return new DistributedPlannerSettings(workerCount,
                DistributedSettings.TASK_REGISTRY.defaults().with(EngineSettings.TARGET_PARTITIONS, targetPartitions));
    }

    /** {@code distributed.max_tasks_per_stage}: a hard limit on a stage's task count; 0 means the worker count. */
    public int maxTasksPerStage() {
        return settings.get(DistributedSettings.MAX_TASKS_PER_STAGE);
    }

    /** {@code distributed.bytes_per_partition_for_scans}: a scan wants {@code ceil(bytes / this / P)} tasks. */
    public long bytesPerPartitionForScans() {
        return settings.get(DistributedSettings.BYTES_PER_PARTITION_FOR_SCANS);
    }

    /**
     * {@code distributed.broadcast_joins}: whether a collect-left join whose type allows it broadcasts
     * its build side; when false, collect-left hash joins are planned partitioned.
     */
    public boolean broadcastJoins() {
        return settings.get(DistributedSettings.BROADCAST_JOINS);
    }

    /** P, the partitions each task runs with ({@code target_partitions}, the single-node plan's partition count). */
    public int targetPartitions() {
        return settings.get(EngineSettings.TARGET_PARTITIONS);
    }

    /**
     * {@code distributed.max_partitions_per_task}: the most hash partitions one producer task writes,
     * {@code P_c × T_c} (and so the most partitions a consumer task reads of it); a Desired consumer
     * count is clamped to it, an exact one above it fails planning.
     */
    public int maxPartitionsPerTask() {
        return settings.get(DistributedSettings.MAX_PARTITIONS_PER_TASK);
    }

    public DistributedPlannerSettings withMaxTasksPerStage(int max) {
        return new DistributedPlannerSettings(workerCount, settings.with(DistributedSettings.MAX_TASKS_PER_STAGE, max));
    }

    public DistributedPlannerSettings withBytesPerPartitionForScans(long bytes) {
        return new DistributedPlannerSettings(workerCount, settings.with(DistributedSettings.BYTES_PER_PARTITION_FOR_SCANS, bytes));
    }

    public DistributedPlannerSettings withBroadcastJoins(boolean broadcast) {
        return new DistributedPlannerSettings(workerCount, settings.with(DistributedSettings.BROADCAST_JOINS, broadcast));
    }

    public DistributedPlannerSettings withMaxPartitionsPerTask(int max) {
        return new DistributedPlannerSettings(workerCount, settings.with(DistributedSettings.MAX_PARTITIONS_PER_TASK, max));
    }

    /** The hard limit on a stage's task count: {@code max_tasks_per_stage}, or the worker count when it is 0. */
    public int effectiveMaxTasksPerStage() {
        return maxTasksPerStage() == 0 ? workerCount : maxTasksPerStage();
    }

    /** How the limit is named in origins and errors. */
    public String maxTasksOrigin() {
        return maxTasksPerStage() == 0
                ? "setting distributed.max_tasks_per_stage=0 (the " + workerCount + " workers)"
                : "setting distributed.max_tasks_per_stage=" + maxTasksPerStage();
    }

    /** How the partition limit is named in origins and errors. */
    public String maxPartitionsOrigin() {
        return "setting distributed.max_partitions_per_task=" + maxPartitionsPerTask();
    }
}
