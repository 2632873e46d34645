package dev.quiver.examples.numbers;

import dev.quiver.distributed.plan.DistributedPlannerSettings;
import dev.quiver.distributed.plan.TaskCountHint;
import dev.quiver.distributed.plan.TaskEstimator;
import dev.quiver.engine.execution.ExecutionPlan;
import java.util.ArrayList;
import java.util.List;

/**
 * How a {@link NumbersScanExec} spreads over a stage's tasks: it wants one task per
 * {@code rowsPerTask} numbers, and task t of n reads the t-th n-th of the range, whatever n the
 * planner (or AQE) chooses.
 */
public final class NumbersEstimator implements TaskEstimator<NumbersScanExec> {
    private final long rowsPerTask;

    public NumbersEstimator(long rowsPerTask) {
        this.rowsPerTask = rowsPerTask;
    }

    @Override
    public Class<NumbersScanExec> leafClass() {
        return NumbersScanExec.class;
    }

    @Override
    public TaskCountHint taskCount(NumbersScanExec leaf, DistributedPlannerSettings settings) {
        long wanted = Math.max(1, (leaf.rows() + rowsPerTask - 1) / rowsPerTask);
        int tasks = (int) Math.min(settings.effectiveMaxTasksPerStage(), wanted);
        return TaskCountHint.desired(tasks, "NumbersEstimator: " + leaf.rows() + " numbers at " + rowsPerTask + " per task");
    }

    @Override
    public List<ExecutionPlan> scaleUpLeafNode(NumbersScanExec leaf, int taskCount, int partitionsPerTask) {
        List<ExecutionPlan> variants = new ArrayList<>();
        for (int t = 0; t < taskCount; t++) {
            variants.add(leaf.range(leaf.first() + leaf.rows() * t / taskCount, leaf.first() + leaf.rows() * (t + 1) / taskCount, partitionsPerTask));
        }
        return variants;
    }
}
