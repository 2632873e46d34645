package dev.quiver.distributed.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.distributed.operator.BoundaryKind;
import dev.quiver.distributed.operator.StageInputExec;
import dev.quiver.engine.execution.ExecutionPlan;
import java.util.ArrayList;
import java.util.List;

/** Consistency checks every distributed plan must pass, shared by planner tests. */
public final class PlanChecks {
    private PlanChecks() {}

    /**
     * Every {@link StageInputExec} of every task names a producer stage that feeds this stage,
     * with the producer's task and partition counts and this stage's task count, and each stage's
     * output names the stage that reads it.
     */
    public static void assertInputsAgree(DistributedPlan plan) {
        for (Stage stage : plan.stages()) {
            assertThat(stage.taskPlans()).allSatisfy(task -> assertThat(task.outputPartitioning().partitionCount()).isEqualTo(stage.partitionsPerTask()));
            List<Integer> inputStages = new ArrayList<>();
            for (ExecutionPlan task : stage.taskPlans()) {
                List<StageInputExec> inputs = new ArrayList<>();
                collect(task, inputs);
                inputStages.clear();
                for (StageInputExec input : inputs) {
                    Stage producer = plan.stage(input.producerStageId());
                    String where = "stage " + stage.stageId() + " input from stage " + producer.stageId();
                    inputStages.add(producer.stageId());
                    assertThat(producer.stageId()).as(where).isLessThan(stage.stageId());
                    assertThat(input.producerTasks()).as(where + ": T_p").isEqualTo(producer.taskCount());
                    assertThat(input.producerPartitions()).as(where + ": P_p").isEqualTo(producer.partitionsPerTask());
                    assertThat(input.consumerTasks()).as(where + ": T_c").isEqualTo(input.kind() == BoundaryKind.COALESCE ? 1 : stage.taskCount());
                    StageOutput output = producer.output().orElseThrow();
                    assertThat(output.kind()).as(where).isEqualTo(input.kind());
                    assertThat(output.consumerStageId()).as(where).isEqualTo(stage.stageId());
                    assertThat(output.partitionsPerConsumerTask()).as(where + ": P_c").isEqualTo(input.partitionsPerConsumerTask());
                    assertThat(output.keys()).as(where).isEqualTo(input.keys());
                    assertThat(input.schema()).as(where).isEqualTo(producer.plan().schema());
                }
            }
            assertThat(inputStages).as("stage " + stage.stageId() + " inputs").containsExactlyElementsOf(stage.inputStageIds());
        }
        assertThat(plan.headStage().taskCount()).isEqualTo(1);
        assertThat(plan.headStage().partitionsPerTask()).isEqualTo(1);
        StageConsistency.check(plan);
    }

    private static void collect(ExecutionPlan plan, List<StageInputExec> inputs) {
        if (plan instanceof StageInputExec input) {
            inputs.add(input);
        }
        plan.children().forEach(child -> collect(child, inputs));
    }
}
