package dev.quiver.distributed.plan;

import static dev.quiver.distributed.plan.PlanBuilders.coalesce;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.distributed.event.DynamicStageBuiltEventResponse;
import dev.quiver.distributed.event.StageEventHandler;
import dev.quiver.distributed.operator.StageInputExec;
import dev.quiver.distributed.planner.DistributedPlanner;
import dev.quiver.distributed.planner.ExactFixtures;
import dev.quiver.distributed.planner.StageEventDispatcher;
import dev.quiver.distributed.planner.StageEvents;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.AbstractExecutionPlan;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.operator.UnionExec;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/** The hint rules of DESIGN §4, through the merge and through planning. */
class TaskCountHintsTest {
    private static final String LIMIT = "setting distributed.max_tasks_per_stage=4";

    @Test
    void desiredHintsAreClampedBeforeTheLargestWins() {
        TaskCountHint merged = TaskCountHints.merge("stage 1", List.of(TaskCountHint.desired(9, "scan a"), TaskCountHint.desired(3, "scan b")), 4, LIMIT);
        assertThat(merged).isEqualTo(TaskCountHint.desired(4, "scan a; 9 clamped by " + LIMIT));
        assertThat(TaskCountHints.merge("stage 1", List.of(TaskCountHint.desired(2, "a"), TaskCountHint.desired(3, "b")), 4, LIMIT))
                .isEqualTo(TaskCountHint.desired(3, "b"));
    }

    @Test
    void anExactOverridesEveryDesired() {
        TaskCountHint merged = TaskCountHints.merge("stage 1",
                List.of(TaskCountHint.desired(4, "scan"), TaskCountHint.exact(2, "handler h"), TaskCountHint.exact(2, "node n")), 4, LIMIT);
        assertThat(merged).isEqualTo(TaskCountHint.exact(2, "handler h"));
    }

    @Test
    void twoDifferentExactsFailNamingBothOrigins() {
        assertThatThrownBy(() -> TaskCountHints.merge("stage 1", List.of(TaskCountHint.exact(2, "handler one"), TaskCountHint.exact(3, "handler two")), 4, LIMIT))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.TASK_COUNT_CONFLICT))
                .hasMessageContaining("stage 1").hasMessageContaining("2 from handler one").hasMessageContaining("3 from handler two");
    }

    @Test
    void anExactAboveTheLimitFailsAndIsNeverClamped() {
        assertThatThrownBy(() -> TaskCountHints.merge("stage 2", List.of(TaskCountHint.exact(5, "handler big")), 4, LIMIT))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.TASK_COUNT_CONFLICT))
                .hasMessageContaining("exactly 5 tasks").hasMessageContaining("handler big").hasMessageContaining(LIMIT);
        assertThat(TaskCountHints.merge("stage 2", List.of(TaskCountHint.exact(4, "handler")), 4, LIMIT).taskCount()).isEqualTo(4);
    }

    @Test
    void planningFailsWhenTwoLeavesOfOneStageRequireDifferentExactCounts() {
        DistributedPlanner planner = new DistributedPlanner(PlanBuilders.fanOut(4, 1), TaskEstimators.builder().add(new FixedEstimator()).build());
        ExecutionPlan union = new UnionExec(List.of(new FixedLeaf("orders", 2), new FixedLeaf("lineitem", 3)));
        assertThatThrownBy(() -> planner.plan(coalesce(union)))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.TASK_COUNT_CONFLICT))
                .hasMessageContaining("FixedLeaf(orders)").hasMessageContaining("FixedLeaf(lineitem)");
    }

    @Test
    void planningFailsWhenALeafRequiresMoreTasksThanTheLimit() {
        DistributedPlanner planner = new DistributedPlanner(PlanBuilders.fanOut(4, 1), TaskEstimators.builder().add(new FixedEstimator()).build());
        assertThatThrownBy(() -> planner.plan(coalesce(new FixedLeaf("big", 6))))
                .isInstanceOf(QuiverException.class)
                .hasMessageContaining("FixedLeaf(big)").hasMessageContaining("distributed.max_tasks_per_stage=0 (the 4 workers)");
        DistributedPlan plan = new DistributedPlanner(PlanBuilders.fanOut(4, 1).withMaxTasksPerStage(6),
                TaskEstimators.builder().add(new FixedEstimator()).build()).plan(coalesce(new FixedLeaf("big", 6)));
        assertThat(plan.stage(0).taskCount()).isEqualTo(6);
        assertThat(plan.stage(0).taskCountHint()).isEqualTo(TaskCountHint.exact(6, "FixedLeaf(big)"));
    }

    @Test
    void anExactConsumerCountFromAHandlerSizesTheConsumerAndItsProducerHead() {
        // SELECT DISTINCT k: a handler requires exactly 3 tasks for the final aggregate's stage (stage 1)
        StageEvents handler = events(ExactFixtures.onBuilt("sizing", event -> DynamicStageBuiltEventResponse.unchanged().withExactConsumerTasks(3)));
        DistributedPlan plan = new DistributedPlanner(PlanBuilders.fanOut(4, 2))
                .plan(coalesce(PlanBuilders.distinct(PlanBuilders.table(100, 2), "k", 2)), handler).plan();
        assertThat(plan.stage(0).taskCount()).isEqualTo(4);
        assertThat(plan.stage(1).taskCount()).isEqualTo(3);
        assertThat(plan.stage(1).taskCountHint()).isEqualTo(TaskCountHint.exact(3, "handler sizing (stage 0 → stage 1)"));
        StageInputExec input = (StageInputExec) plan.stage(1).plan().children().get(0);
        assertThat(input.producerHead().outputPartitions(2)).isEqualTo(6);
        StageConsistency.check(plan);

        StageEvents conflicting = events(ExactFixtures.onBuilt("A", event -> DynamicStageBuiltEventResponse.unchanged().withExactConsumerTasks(3)),
                ExactFixtures.onBuilt("B", event -> DynamicStageBuiltEventResponse.unchanged().withExactConsumerTasks(2)));
        assertThatThrownBy(() -> new DistributedPlanner(PlanBuilders.fanOut(4, 2))
                .plan(coalesce(PlanBuilders.distinct(PlanBuilders.table(100, 2), "k", 2)), conflicting))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.TASK_COUNT_CONFLICT))
                .hasMessageContaining("handler A").hasMessageContaining("handler B");
    }

    private static StageEvents events(StageEventHandler... handlers) {
        return StageEvents.of(new StageEventDispatcher(List.of(handlers)), "q1", Collections.nCopies(4, 1L << 30));
    }

    /** A leaf that requires an exact task count. */
    private static final class FixedLeaf extends AbstractExecutionPlan {
        final String label;
        final int tasks;

        FixedLeaf(String label, int tasks) {
            this.label = label;
            this.tasks = tasks;
        }

        @Override
        public String name() {
            return "FixedLeaf";
        }

        @Override
        public Schema schema() {
            return PlanBuilders.KV;
        }

        @Override
        public List<ExecutionPlan> children() {
            return List.of();
        }

        @Override
        public Partitioning outputPartitioning() {
            return new Partitioning.Unknown(1);
        }

        @Override
        public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
            return this;
        }

        @Override
        public BatchStream execute(int partition, TaskContext context) {
            return BatchStream.empty(schema());
        }

        @Override
        public String displayLine() {
            return "FixedLeaf: " + label;
        }
    }

    private static final class FixedEstimator implements TaskEstimator<FixedLeaf> {
        @Override
        public Class<FixedLeaf> leafClass() {
            return FixedLeaf.class;
        }

        @Override
        public TaskCountHint taskCount(FixedLeaf leaf, DistributedPlannerSettings settings) {
            return TaskCountHint.exact(leaf.tasks, "FixedLeaf(" + leaf.label + ")");
        }

        @Override
        public List<ExecutionPlan> scaleUpLeafNode(FixedLeaf leaf, int taskCount, int partitionsPerTask) {
            return Collections.nCopies(taskCount, leaf);
        }
    }
}
