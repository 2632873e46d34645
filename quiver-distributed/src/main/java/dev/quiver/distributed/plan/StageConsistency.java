package dev.quiver.distributed.plan;

import dev.quiver.distributed.operator.BoundaryKind;
import dev.quiver.distributed.operator.StageInputExec;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.PlanTree;
import java.util.List;

/**
 * Checks that the stages of a {@link DistributedPlan} fit together: every
 * {@link StageInputExec} of every task reads an earlier stage whose output names this stage, with
 * that stage's kind, keys, {@code P_c}, schema, task count {@code T_p} and partitions {@code P_p},
 * and this stage's task count {@code T_c} (1 for a coalesce); every task plan of a stage has the
 * stage's partition count; the head stage is one task of one partition. The planner's output
 * always passes; a rewrite (AQE, a stage-event handler) can call it to re-validate.
 */
public final class StageConsistency {
    private StageConsistency() {}

    /** Fails with {@code PLAN_ERROR} naming the first disagreement. */
    public static void check(DistributedPlan plan) {
        for (Stage stage : plan.stages()) {
            for (ExecutionPlan task : stage.taskPlans()) {
                if (task.outputPartitioning().partitionCount() != stage.partitionsPerTask()) {
                    throw fail(stage, "a task plan has " + task.outputPartitioning().partitionCount() + " partitions, the stage says " + stage.partitionsPerTask());
                }
                List<StageInputExec> inputs = PlanTree.nodesOf(task, StageInputExec.class);
                List<Integer> producers = inputs.stream().map(StageInputExec::producerStageId).toList();
                if (!producers.equals(stage.inputStageIds())) {
                    throw fail(stage, "a task plan reads stages " + producers + ", the stage says " + stage.inputStageIds());
                }
                for (StageInputExec input : inputs) {
                    checkInput(plan, stage, input);
                }
            }
        }
        Stage head = plan.headStage();
        if (head.taskCount() != 1 || head.partitionsPerTask() != 1) {
            throw fail(head, "the head stage must be one task of one partition, not " + head.taskCount() + " × " + head.partitionsPerTask());
        }
    }

    private static void checkInput(DistributedPlan plan, Stage stage, StageInputExec input) {
        if (input.producerStageId() >= stage.stageId()) {
            throw fail(stage, "it reads stage " + input.producerStageId() + ", which does not come before it");
        }
        Stage producer = plan.stage(input.producerStageId());
        StageOutput output = producer.output().orElseThrow(() -> fail(stage, "it reads the head stage"));
        String from = "input from stage " + producer.stageId() + ": ";
        int consumerTasks = input.kind() == BoundaryKind.COALESCE ? 1 : stage.taskCount();
        if (output.consumerStageId() != stage.stageId() || output.kind() != input.kind() || !output.keys().equals(input.keys())) {
            throw fail(stage, from + "the producer's output goes " + output.kind() + " to stage " + output.consumerStageId());
        }
        if (input.producerTasks() != producer.taskCount() || input.producerPartitions() != producer.partitionsPerTask()) {
            throw fail(stage, from + "T_p × P_p is " + input.producerTasks() + " × " + input.producerPartitions() + ", the producer runs "
                    + producer.taskCount() + " × " + producer.partitionsPerTask());
        }
        if (input.consumerTasks() != consumerTasks || input.partitionsPerConsumerTask() != output.partitionsPerConsumerTask()) {
            throw fail(stage, from + "T_c, P_c are " + input.consumerTasks() + ", " + input.partitionsPerConsumerTask() + "; expected "
                    + consumerTasks + ", " + output.partitionsPerConsumerTask());
        }
        if (!input.schema().equals(producer.plan().schema())) {
            throw fail(stage, from + "its schema differs from the producer's");
        }
    }

    private static QuiverException fail(Stage stage, String problem) {
        return new QuiverException(ErrorCode.PLAN_ERROR, "stage " + stage.stageId() + " does not fit the plan: " + problem);
    }

}
