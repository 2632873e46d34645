package dev.quiver.distributed.plan;

import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.source.memory.MemoryChunk;
import dev.quiver.engine.source.memory.MemoryTableScanExec;
import java.util.List;

/** Scans of in-memory tables ({@code CREATE TABLE}) split by whole batches, balanced by the scanned columns' bytes. */
final class MemoryTableTaskEstimator implements TaskEstimator<MemoryTableScanExec> {
    @Override
    public Class<MemoryTableScanExec> leafClass() {
        return MemoryTableScanExec.class;
    }

    @Override
    public TaskCountHint taskCount(MemoryTableScanExec leaf, DistributedPlannerSettings settings) {
        List<MemoryChunk> chunks = leaf.partitions().stream().flatMap(List::stream).toList();
        long bytes = chunks.stream().mapToLong(MemoryChunk::bytes).sum();
        return ScanShares.bytesHint("MemoryTableScanExec(" + leaf.table() + ")", bytes, Math.max(1, chunks.size()), "batches", settings);
    }

    @Override
    public List<ExecutionPlan> scaleUpLeafNode(MemoryTableScanExec leaf, int taskCount, int partitionsPerTask) {
        return ScanShares.<MemoryChunk>deal(leaf.partitions(), MemoryChunk::bytes, taskCount, partitionsPerTask).stream()
                .<ExecutionPlan>map(partitions -> new MemoryTableScanExec(leaf.table(), leaf.schema(), partitions)).toList();
    }
}
