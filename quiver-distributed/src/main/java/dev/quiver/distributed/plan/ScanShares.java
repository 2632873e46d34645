package dev.quiver.distributed.plan;

import dev.quiver.distributed.config.DistributedSettings;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.memory.ByteSize;
import dev.quiver.engine.source.files.SplitAssigner;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToLongFunction;

/** What the built-in scan estimators share: the bytes-based hint and the split of splits over tasks. */
final class ScanShares {
    private ScanShares() {}

    /**
     * {@code Desired(ceil(bytes / bytes_per_partition_for_scans / P))}, at most {@code maxUnits}
     * (the splits a task can get: more tasks would read nothing), at least 1.
     */
    static TaskCountHint bytesHint(String leaf, long bytes, int maxUnits, String unit, DistributedPlannerSettings settings) {
        long perPartition = settings.bytesPerPartitionForScans();
        int partitions = settings.targetPartitions();
        long wanted = Math.max(1, ceilDiv(ceilDiv(Math.max(0, bytes), perPartition), partitions));
        long tasks = Math.max(1, Math.min(wanted, maxUnits));
        String origin = leaf + ": " + ByteSize.formatBytes(bytes) + " / " + ByteSize.formatBytes(perPartition)
                + " per partition (" + DistributedSettings.BYTES_PER_PARTITION_FOR_SCANS.name() + ") / P=" + partitions + " → " + wanted + (wanted == 1 ? " task" : " tasks")
                + (tasks < wanted ? ", capped at its " + maxUnits + " " + unit : "");
        return TaskCountHint.desired((int) tasks, origin);
    }

    /**
     * The splits of a scan (all partitions, in order) dealt to {@code taskCount} tasks of
     * {@code partitionsPerTask} partitions each: balanced by weight between tasks first, then
     * between the partitions of a task; missing partitions are empty.
     */
    static <S> List<List<List<S>>> deal(List<List<S>> partitions, ToLongFunction<S> weight, int taskCount, int partitionsPerTask) {
        if (taskCount < 1 || partitionsPerTask < 1) {
            throw new QuiverException(ErrorCode.PLAN_ERROR, "cannot split a scan into " + taskCount + " tasks of " + partitionsPerTask + " partitions");
        }
        List<S> splits = partitions.stream().flatMap(List::stream).toList();
        List<List<S>> tasks = pad(SplitAssigner.assign(splits, weight, taskCount), taskCount);
        List<List<List<S>>> shares = new ArrayList<>(taskCount);
        for (List<S> task : tasks) {
            shares.add(pad(SplitAssigner.assign(task, weight, partitionsPerTask), partitionsPerTask));
        }
        return shares;
    }

    private static <S> List<List<S>> pad(List<List<S>> groups, int count) {
        List<List<S>> padded = new ArrayList<>(groups);
        while (padded.size() < count) {
            padded.add(List.of());
        }
        return padded;
    }

    static long ceilDiv(long a, long b) {
        return -Math.floorDiv(-a, b);
    }
}
