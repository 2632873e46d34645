package dev.quiver.distributed.plan;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.execution.ExecutionPlan;
import java.util.List;
import java.util.Optional;

/**
 * A piece of plan between network boundaries (DESIGN §4), run as {@code T = taskPlans.size()}
 * tasks of {@code P} partitions each. {@code taskPlans.get(t)} is task t's variant of the stage
 * plan: its source leaves read the task's share of the data, and its
 * {@link dev.quiver.distributed.operator.StageInputExec} leaves are still unbound (the coordinator
 * binds them when it knows where the producer tasks run). The plan never includes the producer
 * head: that belongs to the boundary in {@code output}.
 *
 * @param taskCountHint the merged hint that set {@code T}, with its origin
 * @param output where the output goes; empty for the head stage, which runs as one task on the coordinator
 * @param inputStageIds the stages this one reads, in the order its inputs appear in the plan
 */
public record Stage(int stageId, List<ExecutionPlan> taskPlans, int partitionsPerTask, TaskCountHint taskCountHint, Optional<StageOutput> output,
        List<Integer> inputStageIds) {
    public Stage {
        taskPlans = List.copyOf(requireNonNull(taskPlans, "taskPlans is null"));
        requireNonNull(taskCountHint, "taskCountHint is null");
        requireNonNull(output, "output is null");
        inputStageIds = List.copyOf(requireNonNull(inputStageIds, "inputStageIds is null"));
        if (taskPlans.isEmpty()) {
            throw new IllegalArgumentException("stage " + stageId + " has no task");
        }
        if (partitionsPerTask < 1) {
            throw new IllegalArgumentException("stage " + stageId + " needs at least one partition per task: " + partitionsPerTask);
        }
        if (output.isEmpty() && taskPlans.size() != 1) {
            throw new IllegalArgumentException("the head stage runs as one task, not " + taskPlans.size());
        }
    }

    public int taskCount() {
        return taskPlans.size();
    }

    /** The stage plan as task 0 runs it, for display. */
    public ExecutionPlan plan() {
        return taskPlans.get(0);
    }

    public boolean isHead() {
        return output.isEmpty();
    }
}
