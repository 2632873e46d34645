package dev.quiver.distributed.plan;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;

/**
 * What the distributed planner needs to know about the cluster and the session (DESIGN §4).
 *
 * @param workerCount the workers the query may use (W), at least 1
 * @param maxTasksPerStage {@code distributed.max_tasks_per_stage}: a hard limit on a stage's task
 *     count; 0 means the worker count
 * @param bytesPerPartitionForScans {@code distributed.bytes_per_partition_for_scans}: how many bytes
 *     of a scan one partition should read; a scan wants {@code ceil(bytes / this / P)} tasks
 * @param broadcastJoins {@code distributed.broadcast_joins}: whether a collect-left join whose
 *     type allows it broadcasts its build side; when false, collect-left hash joins are planned
 *     partitioned (both sides shuffled on the join keys)
 * @param targetPartitions P, the partitions each task runs with (the single-node plan's partition count)
 * @param maxPartitionsPerTask {@code distributed.max_partitions_per_task}: the most hash partitions
 *     one producer task writes, {@code P_c × T_c} (and so the most partitions a consumer task reads
 *     of it); a Desired consumer count is clamped to it, an exact one above it fails planning
 */
public record DistributedPlannerSettings(int workerCount, int maxTasksPerStage, long bytesPerPartitionForScans, boolean broadcastJoins,
        int targetPartitions, int maxPartitionsPerTask) {
    /** The default of {@code distributed.bytes_per_partition_for_scans}: 16 MiB. */
    public static final long DEFAULT_BYTES_PER_PARTITION_FOR_SCANS = 16L << 20;
    /** The default of {@code distributed.max_partitions_per_task}: 8192 (64 partitions × 128 tasks). */
    public static final int DEFAULT_MAX_PARTITIONS_PER_TASK = 8192;

    public DistributedPlannerSettings {
        if (workerCount < 1) {
            throw new QuiverException(ErrorCode.INVALID_CONFIGURATION, "a distributed query needs at least one worker, not " + workerCount);
        }
        if (maxTasksPerStage < 0) {
            throw new QuiverException(ErrorCode.INVALID_CONFIGURATION,
                    "distributed.max_tasks_per_stage must be 0 (the worker count) or positive, not " + maxTasksPerStage);
        }
        if (bytesPerPartitionForScans < 1) {
            throw new QuiverException(ErrorCode.INVALID_CONFIGURATION,
                    "distributed.bytes_per_partition_for_scans must be positive, not " + bytesPerPartitionForScans);
        }
        if (targetPartitions < 1) {
            throw new QuiverException(ErrorCode.INVALID_CONFIGURATION, "target_partitions must be positive, not " + targetPartitions);
        }
        if (maxPartitionsPerTask < 1) {
            throw new QuiverException(ErrorCode.INVALID_CONFIGURATION, "distributed.max_partitions_per_task must be positive, not " + maxPartitionsPerTask);
        }
    }

    /** With the default {@code distributed.max_partitions_per_task}. */
    public DistributedPlannerSettings(int workerCount, int maxTasksPerStage, long bytesPerPartitionForScans, boolean broadcastJoins, int targetPartitions) {
        this(workerCount, maxTasksPerStage, bytesPerPartitionForScans, broadcastJoins, targetPartitions, DEFAULT_MAX_PARTITIONS_PER_TASK);
    }

    /** The defaults of DESIGN §4 for {@code workerCount} workers and P = {@code targetPartitions}. */
    public static DistributedPlannerSettings defaults(int workerCount, int targetPartitions) {
        return new DistributedPlannerSettings(workerCount, 0, DEFAULT_BYTES_PER_PARTITION_FOR_SCANS, true, targetPartitions);
    }

    public DistributedPlannerSettings withMaxTasksPerStage(int max) {
        return new DistributedPlannerSettings(workerCount, max, bytesPerPartitionForScans, broadcastJoins, targetPartitions, maxPartitionsPerTask);
    }

    public DistributedPlannerSettings withBytesPerPartitionForScans(long bytes) {
        return new DistributedPlannerSettings(workerCount, maxTasksPerStage, bytes, broadcastJoins, targetPartitions, maxPartitionsPerTask);
    }

    public DistributedPlannerSettings withBroadcastJoins(boolean broadcast) {
        return new DistributedPlannerSettings(workerCount, maxTasksPerStage, bytesPerPartitionForScans, broadcast, targetPartitions, maxPartitionsPerTask);
    }

    public DistributedPlannerSettings withMaxPartitionsPerTask(int max) {
        return new DistributedPlannerSettings(workerCount, maxTasksPerStage, bytesPerPartitionForScans, broadcastJoins, targetPartitions, max);
    }

    /** How the partition limit is named in origins and errors. */
    public String maxPartitionsOrigin() {
        return "setting distributed.max_partitions_per_task=" + maxPartitionsPerTask;
    }

    /** The hard limit on a stage's task count: {@code max_tasks_per_stage}, or the worker count when it is 0. */
    public int effectiveMaxTasksPerStage() {
        return maxTasksPerStage == 0 ? workerCount : maxTasksPerStage;
    }

    /** How the limit is named in origins and errors. */
    public String maxTasksOrigin() {
        return maxTasksPerStage == 0
                ? "setting distributed.max_tasks_per_stage=0 (the " + workerCount + " workers)"
                : "setting distributed.max_tasks_per_stage=" + maxTasksPerStage;
    }
}
