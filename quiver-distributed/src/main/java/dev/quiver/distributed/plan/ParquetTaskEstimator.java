package dev.quiver.distributed.plan;

import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.source.parquet.ParquetRowGroup;
import dev.quiver.engine.source.parquet.ParquetScanExec;
import java.util.List;

/** Parquet scans split by whole row groups, balanced by the projected columns' bytes (a row group is never cut). */
final class ParquetTaskEstimator implements TaskEstimator<ParquetScanExec> {
    @Override
    public Class<ParquetScanExec> leafClass() {
        return ParquetScanExec.class;
    }

    @Override
    public TaskCountHint taskCount(ParquetScanExec leaf, DistributedPlannerSettings settings) {
        long bytes = leaf.partitions().stream().flatMap(List::stream).mapToLong(rowGroup -> rowGroup.bytes(leaf.projection())).sum();
        return ScanShares.bytesHint("ParquetScanExec(" + leaf.tableName() + ")", bytes, leaf.rowGroupsScanned(), "row groups", settings);
    }

    @Override
    public List<ExecutionPlan> scaleUpLeafNode(ParquetScanExec leaf, int taskCount, int partitionsPerTask) {
        List<Integer> projection = leaf.projection();
        return ScanShares.<ParquetRowGroup>deal(leaf.partitions(), rowGroup -> rowGroup.bytes(projection), taskCount, partitionsPerTask).stream()
                .<ExecutionPlan>map(leaf::withPartitions).toList();
    }
}
