package dev.quiver.distributed.plan;

import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.operator.ValuesExec;
import java.util.ArrayList;
import java.util.List;

/** Constant rows are read by task 0; the other tasks' variants are empty. They never ask for more than one task. */
final class ValuesTaskEstimator implements TaskEstimator<ValuesExec> {
    @Override
    public Class<ValuesExec> leafClass() {
        return ValuesExec.class;
    }

    @Override
    public TaskCountHint taskCount(ValuesExec leaf, DistributedPlannerSettings settings) {
        return TaskCountHint.desired(1, "ValuesExec: " + leaf.rows().size() + " constant rows");
    }

    @Override
    public List<ExecutionPlan> scaleUpLeafNode(ValuesExec leaf, int taskCount, int partitionsPerTask) {
        List<ExecutionPlan> variants = new ArrayList<>(taskCount);
        variants.add(leaf);
        for (int task = 1; task < taskCount; task++) {
            variants.add(new ValuesExec(leaf.schema(), List.of()));
        }
        return variants;
    }
}
