package dev.quiver.distributed.plan;

import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.source.memory.MemoryScanExec;
import java.util.ArrayList;
import java.util.List;

/**
 * In-memory scans split by rows: all rows in order, cut into {@code T·P} contiguous runs of nearly
 * equal length. Sized by a rough 8 bytes per value, since the rows carry no sizes.
 */
final class MemoryTaskEstimator implements TaskEstimator<MemoryScanExec> {
    @Override
    public Class<MemoryScanExec> leafClass() {
        return MemoryScanExec.class;
    }

    @Override
    public TaskCountHint taskCount(MemoryScanExec leaf, DistributedPlannerSettings settings) {
        long rows = leaf.partitions().stream().mapToLong(List::size).sum();
        long bytes = rows * Math.max(1, leaf.schema().getFields().size()) * 8L;
        return ScanShares.bytesHint("MemoryScanExec", bytes, (int) Math.min(Integer.MAX_VALUE, Math.max(1, rows)), "rows", settings);
    }

    @Override
    public List<ExecutionPlan> scaleUpLeafNode(MemoryScanExec leaf, int taskCount, int partitionsPerTask) {
        List<List<Object>> rows = leaf.partitions().stream().flatMap(List::stream).toList();
        int runs = Math.multiplyExact(taskCount, partitionsPerTask);
        List<ExecutionPlan> variants = new ArrayList<>(taskCount);
        for (int task = 0; task < taskCount; task++) {
            List<List<List<Object>>> partitions = new ArrayList<>(partitionsPerTask);
            for (int p = 0; p < partitionsPerTask; p++) {
                int run = task * partitionsPerTask + p;
                partitions.add(rows.subList((int) ((long) rows.size() * run / runs), (int) ((long) rows.size() * (run + 1) / runs)));
            }
            variants.add(new MemoryScanExec(leaf.schema(), partitions));
        }
        return variants;
    }
}
