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
 */
public record DistributedPlannerSettings(int workerCount, int maxTasksPerStage, long bytesPerPartitionForScans, boolean broadcastJoins,
        int targetPartitions) {
    /** The default of {@code distributed.bytes_per_partition_for_scans}: 16 MiB. */
    public static final long DEFAULT_BYTES_PER_PARTITION_FOR_SCANS = 16L << 20;

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
    }

    /** The defaults of DESIGN §4 for {@code workerCount} workers and P = {@code targetPartitions}. */
    public static DistributedPlannerSettings defaults(int workerCount, int targetPartitions) {
        return new DistributedPlannerSettings(workerCount, 0, DEFAULT_BYTES_PER_PARTITION_FOR_SCANS, true, targetPartitions);
    }

    public DistributedPlannerSettings withMaxTasksPerStage(int max) {
        return new DistributedPlannerSettings(workerCount, max, bytesPerPartitionForScans, broadcastJoins, targetPartitions);
    }

    public DistributedPlannerSettings withBytesPerPartitionForScans(long bytes) {
        return new DistributedPlannerSettings(workerCount, maxTasksPerStage, bytes, broadcastJoins, targetPartitions);
    }

    public DistributedPlannerSettings withBroadcastJoins(boolean broadcast) {
        return new DistributedPlannerSettings(workerCount, maxTasksPerStage, bytesPerPartitionForScans, broadcast, targetPartitions);
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
