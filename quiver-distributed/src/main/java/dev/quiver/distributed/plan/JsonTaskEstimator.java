package dev.quiver.distributed.plan;

import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.source.json.JsonFile;
import dev.quiver.engine.source.json.JsonScanExec;
import java.util.List;

/** JSON Lines scans split by whole files, balanced by bytes. */
final class JsonTaskEstimator implements TaskEstimator<JsonScanExec> {
    @Override
    public Class<JsonScanExec> leafClass() {
        return JsonScanExec.class;
    }

    @Override
    public TaskCountHint taskCount(JsonScanExec leaf, DistributedPlannerSettings settings) {
        List<JsonFile> files = leaf.partitions().stream().flatMap(List::stream).toList();
        long bytes = files.stream().mapToLong(JsonFile::bytes).sum();
        return ScanShares.bytesHint("JsonScanExec(" + leaf.tableName() + ")", bytes, files.size(), "files", settings);
    }

    @Override
    public List<ExecutionPlan> scaleUpLeafNode(JsonScanExec leaf, int taskCount, int partitionsPerTask) {
        return ScanShares.<JsonFile>deal(leaf.partitions(), JsonFile::bytes, taskCount, partitionsPerTask).stream()
                .<ExecutionPlan>map(leaf::withPartitions).toList();
    }
}
