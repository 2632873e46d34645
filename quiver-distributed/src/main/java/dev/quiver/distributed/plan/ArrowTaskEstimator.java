package dev.quiver.distributed.plan;

import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.source.arrow.ArrowBlockSplit;
import dev.quiver.engine.source.arrow.ArrowScanExec;
import java.util.List;

/** Arrow IPC scans split by whole record batches, balanced by body bytes. */
final class ArrowTaskEstimator implements TaskEstimator<ArrowScanExec> {
    @Override
    public Class<ArrowScanExec> leafClass() {
        return ArrowScanExec.class;
    }

    @Override
    public TaskCountHint taskCount(ArrowScanExec leaf, DistributedPlannerSettings settings) {
        long body = leaf.partitions().stream().flatMap(List::stream).mapToLong(ArrowBlockSplit::bodyBytes).sum();
        int columns = leaf.tableSchema().getFields().size();
        // the file has no per-column sizes: count the projected share of the body, as the scan's statistics do
        long bytes = columns == 0 ? 0 : body * leaf.projection().size() / columns;
        return ScanShares.bytesHint("ArrowScanExec(" + leaf.tableName() + ")", bytes, leaf.batchesScanned(), "record batches", settings);
    }

    @Override
    public List<ExecutionPlan> scaleUpLeafNode(ArrowScanExec leaf, int taskCount, int partitionsPerTask) {
        return ScanShares.<ArrowBlockSplit>deal(leaf.partitions(), ArrowBlockSplit::bodyBytes, taskCount, partitionsPerTask).stream()
                .<ExecutionPlan>map(leaf::withPartitions).toList();
    }
}
