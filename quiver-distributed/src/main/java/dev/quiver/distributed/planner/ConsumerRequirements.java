package dev.quiver.distributed.planner;

import dev.quiver.distributed.operator.BoundaryKind;
import dev.quiver.distributed.operator.StageInputExec;
import dev.quiver.distributed.plan.DistributedPlannerSettings;
import dev.quiver.distributed.plan.StageFragment;
import dev.quiver.distributed.plan.TaskCountHint;
import dev.quiver.distributed.plan.TaskCountHints;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.PlanTree;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Checks what the handlers required of one consumer stage over all of its input boundaries decided
 * so far (DESIGN §6): the counts at every input together with the consumer's own hints (two inputs
 * of a join with different exacts, or an exact against a one-task consumer, fail naming both
 * origins), the {@code P_c} of its shuffle inputs (they must match: a partitioned join runs each
 * partition over matching partitions of all of them), and {@code P_c × n} within
 * {@code distributed.max_partitions_per_task}. The {@link StagePlanningLoop} calls it each time a
 * boundary is decided and dispatches no producer of the consumer before all of them are, so a
 * conflict fails before anything that feeds the consumer runs.
 */
final class ConsumerRequirements {
    private ConsumerRequirements() {}

    /** @throws QuiverException {@code TASK_COUNT_CONFLICT} naming both origins of the first disagreement */
    static void check(StageFragment consumer, Map<Integer, BoundaryRequirements> decided, DistributedPlannerSettings settings) {
        List<BoundaryRequirements> inputs = new ArrayList<>();
        for (int input : consumer.inputStageIds()) {
            BoundaryRequirements requirements = decided.get(input);
            if (requirements != null) {
                inputs.add(requirements);
            }
        }
        if (inputs.isEmpty()) {
            return;
        }
        String stage = "stage " + consumer.stageId();
        List<TaskCountHint> hints = new ArrayList<>(inputs.get(0).boundary().consumerHints());
        inputs.forEach(requirements -> hints.addAll(requirements.hints()));
        TaskCountHint merged = TaskCountHints.merge(stage, hints, settings.effectiveMaxTasksPerStage(), settings.maxTasksOrigin());
        checkShuffleInputs(consumer, decided);
        if (!(merged instanceof TaskCountHint.Exact exact)) {
            return;
        }
        for (BoundaryRequirements requirements : inputs) {
            if (requirements.boundary().kind() != BoundaryKind.SHUFFLE) {
                continue;
            }
            long partitions = (long) requirements.effectivePartitionsPerConsumerTask() * exact.taskCount();
            if (partitions > settings.maxPartitionsPerTask()) {
                throw new QuiverException(ErrorCode.TASK_COUNT_CONFLICT, stage + " requires exactly " + exact.taskCount() + " tasks (from " + exact.origin()
                        + ") of P_c=" + requirements.effectivePartitionsPerConsumerTask() + " partitions each (" + requirements.partitionsOrigin()
                        + "): every task of stage " + requirements.boundary().producerStageId() + " would write " + partitions
                        + " hash partitions, more than the limit of " + settings.maxPartitionsPerTask() + " (" + settings.maxPartitionsOrigin()
                        + "); lower the count or P_c, or raise the limit");
            }
        }
    }

    /**
     * Checks the {@code P_c} of {@code consumer}'s shuffle inputs whose boundaries are decided: they
     * must agree, otherwise {@code TASK_COUNT_CONFLICT} naming both origins (a handler's override, or
     * the planned {@code P_c}).
     */
    static void checkShuffleInputs(StageFragment consumer, Map<Integer, BoundaryRequirements> decided) {
        BoundaryRequirements first = null;
        for (StageInputExec input : PlanTree.nodesOf(consumer.plan(), StageInputExec.class)) {
            BoundaryRequirements required = decided.get(input.producerStageId());
            if (input.kind() != BoundaryKind.SHUFFLE || required == null) {
                continue;
            }
            if (first == null) {
                first = required;
            } else if (first.effectivePartitionsPerConsumerTask() != required.effectivePartitionsPerConsumerTask()) {
                throw new QuiverException(ErrorCode.TASK_COUNT_CONFLICT, "stage " + consumer.stageId() + " reads stage "
                        + first.boundary().producerStageId() + " with P_c=" + first.effectivePartitionsPerConsumerTask() + " (" + first.partitionsOrigin()
                        + ") and stage " + required.boundary().producerStageId() + " with P_c=" + required.effectivePartitionsPerConsumerTask() + " ("
                        + required.partitionsOrigin() + "); the partitions of a stage's shuffle inputs must match");
            }
        }
    }
}
