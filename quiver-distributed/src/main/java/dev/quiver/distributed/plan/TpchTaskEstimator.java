package dev.quiver.distributed.plan;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.source.tpch.TpchScanExec;
import dev.quiver.engine.stats.Estimate;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

/**
 * TPC-H scans split by parts: with T tasks of P partitions the table is generated in {@code T·P}
 * parts and task t generates parts {@code [t·P, t·P + P)}. Sized by the estimated bytes (rows ×
 * column widths). Nation and region are one part: task 0 generates it, the others nothing.
 */
final class TpchTaskEstimator implements TaskEstimator<TpchScanExec> {
    @Override
    public Class<TpchScanExec> leafClass() {
        return TpchScanExec.class;
    }

    @Override
    public TaskCountHint taskCount(TpchScanExec leaf, DistributedPlannerSettings settings) {
        Estimate bytes = leaf.partitionStatistics(OptionalInt.empty()).totalBytes();
        return ScanShares.bytesHint("TpchScanExec(" + leaf.tableName() + ")", bytes.isKnown() ? bytes.value() : 0, Integer.MAX_VALUE, "parts",
                settings);
    }

    @Override
    public List<ExecutionPlan> scaleUpLeafNode(TpchScanExec leaf, int taskCount, int partitionsPerTask) {
        if (leaf.firstPart() != 0 || leaf.outputPartitioning().partitionCount() != leaf.totalParts()) {
            throw new QuiverException(ErrorCode.PLAN_ERROR, "cannot split " + leaf.displayLine() + ": it reads a share of the table already");
        }
        int totalParts = Math.multiplyExact(taskCount, partitionsPerTask);
        List<ExecutionPlan> variants = new ArrayList<>(taskCount);
        for (int task = 0; task < taskCount; task++) {
            variants.add(leaf.withParts(task * partitionsPerTask, partitionsPerTask, totalParts));
        }
        return variants;
    }
}
