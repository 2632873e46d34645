package dev.quiver.distributed.plan;

import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.source.csv.CsvFile;
import dev.quiver.engine.source.csv.CsvScanExec;
import java.util.List;

/** CSV scans split by the byte ranges the table was planned with (whole files or their splits), balanced by bytes. */
final class CsvTaskEstimator implements TaskEstimator<CsvScanExec> {
    @Override
    public Class<CsvScanExec> leafClass() {
        return CsvScanExec.class;
    }

    @Override
    public TaskCountHint taskCount(CsvScanExec leaf, DistributedPlannerSettings settings) {
        List<CsvFile> ranges = leaf.partitions().stream().flatMap(List::stream).toList();
        long bytes = ranges.stream().mapToLong(CsvFile::bytes).sum();
        return ScanShares.bytesHint("CsvScanExec(" + leaf.tableName() + ")", bytes, ranges.size(), "file ranges", settings);
    }

    @Override
    public List<ExecutionPlan> scaleUpLeafNode(CsvScanExec leaf, int taskCount, int partitionsPerTask) {
        return ScanShares.<CsvFile>deal(leaf.partitions(), CsvFile::bytes, taskCount, partitionsPerTask).stream()
                .<ExecutionPlan>map(leaf::withPartitions).toList();
    }
}
