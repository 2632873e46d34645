package dev.quiver.distributed.planner;

import static dev.quiver.distributed.planner.ExactFixtures.col;
import static dev.quiver.distributed.planner.ExactFixtures.groupBy;
import static dev.quiver.distributed.planner.ExactFixtures.onBuilt;
import static dev.quiver.distributed.planner.ExactFixtures.planner;
import static dev.quiver.distributed.planner.ExactFixtures.table;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.distributed.event.DynamicStageBuiltEventResponse;
import dev.quiver.distributed.event.StageEventHandler;
import dev.quiver.distributed.handler.AggregateMemorySizingHandler;
import dev.quiver.distributed.operator.StageInputExec;
import dev.quiver.distributed.plan.DistributedPlan;
import dev.quiver.distributed.plan.DistributedPlannerSettings;
import dev.quiver.distributed.plan.Stage;
import dev.quiver.distributed.plan.TaskCountHint;
import dev.quiver.distributed.protocol.ProducerHead;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.operator.ProjectionExec;
import dev.quiver.engine.operator.aggregate.AggregateExpr;
import dev.quiver.engine.operator.aggregate.AggregateFunction;
import dev.quiver.engine.operator.exchange.RepartitionExec;
import dev.quiver.engine.operator.join.HashJoinExec;
import dev.quiver.engine.operator.join.JoinType;
import dev.quiver.engine.operator.join.PartitionMode;
import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.engine.spi.ScanRequest;
import dev.quiver.engine.types.QuiverTypes;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Static planning with stage-built events: the whole plan, consistent, with every handler's requirement applied. */
class StaticPlanningEventsTest {
    private static final long GIB = 1L << 30;
    private final DistributedPlanner planner = planner(4, 4);
    private final ExecutionPlan query = groupBy(table(10_000, 4), List.of("k"), List.of(), 4);

    private DistributedPlan plan(DistributedPlanner planner, ExecutionPlan query, StageEventHandler... handlers) {
        return ExactFixtures.plan(planner, query, new StageEventDispatcher(List.of(handlers)), "q1",
                Collections.nCopies(planner.settings().workerCount(), GIB)).plan();
    }

    private static StageInputExec inputFrom(ExecutionPlan plan, int producer) {
        if (plan instanceof StageInputExec input && input.producerStageId() == producer) {
            return input;
        }
        return plan.children().stream().map(child -> inputFrom(child, producer)).filter(Objects::nonNull).findFirst().orElse(null);
    }

    @Test
    void withoutHandlersItIsTheStaticPlan() {
        DistributedPlan plain = planner.plan(query);
        DistributedPlan evented = plan(planner, query);
        assertThat(evented.stages()).extracting(Stage::taskCount).isEqualTo(plain.stages().stream().map(Stage::taskCount).toList());
        assertThat(plain.stage(1).taskCount()).isEqualTo(4);
    }

    @Test
    void anExactConsumerCountBeatsTheStaticAdvisoryOne() {
        DistributedPlan plan = plan(planner, query, onBuilt("wants-more", event -> DynamicStageBuiltEventResponse.unchanged().withDesiredConsumerTasks(3)),
                onBuilt("needs-two", event -> DynamicStageBuiltEventResponse.unchanged().withExactConsumerTasks(2)));
        Stage consumer = plan.stage(1);
        assertThat(plan.stage(0).taskCount()).isEqualTo(4);
        assertThat(consumer.taskCount()).isEqualTo(2);
        assertThat(consumer.taskCountHint()).isInstanceOf(TaskCountHint.Exact.class);
        assertThat(consumer.taskCountHint().origin()).isEqualTo("handler needs-two (stage 0 → stage 1)");
        assertThat(inputFrom(consumer.plan(), 0).producerHead()).isEqualTo(new ProducerHead.Shuffle(plan.stage(0).output().orElseThrow().keys(), 4, 2));
    }

    @Test
    void aPcOverrideGivesProducerHashPartitionsOfPcTimesN() {
        DistributedPlan plan = plan(planner, query, onBuilt("layout", event -> DynamicStageBuiltEventResponse.unchanged().withExactConsumerTasks(3, 2)));
        Stage consumer = plan.stage(1);
        assertThat(consumer.taskCount()).isEqualTo(3);
        assertThat(consumer.partitionsPerTask()).isEqualTo(2);
        assertThat(plan.stage(0).output().orElseThrow().partitionsPerConsumerTask()).isEqualTo(2);
        for (int t = 0; t < 3; t++) {
            ProducerHead head = inputFrom(consumer.taskPlans().get(t), 0).producerHead();
            assertThat(head).isEqualTo(new ProducerHead.Shuffle(plan.stage(0).output().orElseThrow().keys(), 2, 3));
            assertThat(head.outputPartitions(plan.stage(0).partitionsPerTask())).isEqualTo(6);
        }
    }

    @Test
    void aRewrittenProducerIsSizedAgainAndRuns() {
        DistributedPlan plan = plan(planner, query, onBuilt("wrapper", event -> {
            ExecutionPlan producer = event.producerPlan();
            List<PhysicalExpr> exprs = producer.schema().getFields().stream().map(field -> (PhysicalExpr) col(producer, field.getName())).toList();
            List<String> names = producer.schema().getFields().stream().map(field -> field.getName()).toList();
            return DynamicStageBuiltEventResponse.rewritten(new ProjectionExec(exprs, names, producer));
        }));
        assertThat(plan.stage(0).taskPlans()).allSatisfy(task -> assertThat(task).isInstanceOf(ProjectionExec.class));
        assertThat(plan.stage(0).taskCount()).isEqualTo(4);
    }

    @Test
    void twoInputsOfAJoinWithDifferentExactsFailNamingBoth() {
        ExecutionPlan build = table(1_000, 2);
        ExecutionPlan probe = table(5_000, 2);
        List<PhysicalExpr> buildKeys = List.of(col(build, "k"));
        List<PhysicalExpr> probeKeys = List.of(col(probe, "k"));
        ExecutionPlan join = new HashJoinExec(new RepartitionExec(build, new Partitioning.Hash(buildKeys, 4)),
                new RepartitionExec(probe, new Partitioning.Hash(probeKeys, 4)), buildKeys, probeKeys, JoinType.INNER, Optional.empty(),
                PartitionMode.PARTITIONED);
        StageEventHandler perInput = onBuilt("per-input",
                event -> DynamicStageBuiltEventResponse.unchanged().withExactConsumerTasks(event.boundary().producerStageId() == 0 ? 2 : 3));
        assertThatThrownBy(() -> plan(planner, join, perInput))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.TASK_COUNT_CONFLICT))
                .hasMessageContaining("handler per-input (stage 0 → stage 2)").hasMessageContaining("handler per-input (stage 1 → stage 2)");
        // agreeing exacts on both inputs size the join to that count
        DistributedPlan agreed = plan(planner, join, onBuilt("both", event -> DynamicStageBuiltEventResponse.unchanged().withExactConsumerTasks(3)));
        assertThat(agreed.stage(2).taskCount()).isEqualTo(3);
        // the same P_c override on both inputs (not the planned 4): the join runs 3 tasks of 3 partitions, both producers write Hash(k, 9)
        DistributedPlan samePc = plan(planner, join, onBuilt("both-pc", event -> DynamicStageBuiltEventResponse.unchanged().withExactConsumerTasks(3, 3)));
        assertThat(samePc.stage(2).taskCount()).isEqualTo(3);
        assertThat(samePc.stage(2).partitionsPerTask()).isEqualTo(3);
        assertThat(List.of(samePc.stage(0), samePc.stage(1))).allSatisfy(producer -> assertThat(producer.output().orElseThrow().partitionsPerConsumerTask()).isEqualTo(3));
        // a P_c override on one input only: the other keeps the planned 4, which a partitioned join cannot match
        assertThatThrownBy(() -> plan(planner, join, onBuilt("one-pc", event -> event.boundary().producerStageId() == 0
                ? DynamicStageBuiltEventResponse.unchanged().withExactConsumerTasks(3, 3) : DynamicStageBuiltEventResponse.unchanged().withExactConsumerTasks(3))))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.TASK_COUNT_CONFLICT))
                .hasMessageContaining("with P_c=3").hasMessageContaining("P_c=4 (planned for stage 1 → stage 2)");
    }

    @Test
    void anExactAboveTheLimitFailsBeforeAnyPlanExistsAndAtTheLimitPlans() {
        assertThatThrownBy(() -> plan(planner, query, onBuilt("five", event -> DynamicStageBuiltEventResponse.unchanged().withExactConsumerTasks(5))))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.TASK_COUNT_CONFLICT))
                .hasMessageContaining("limit of 4");
        assertThat(plan(planner, query, onBuilt("four", event -> DynamicStageBuiltEventResponse.unchanged().withExactConsumerTasks(4))).stage(1).taskCount())
                .isEqualTo(4);
    }

    @Test
    void theReferenceHandlerSizesATpchGroupByByItsWorkersMemory() {
        try (TpchCatalog catalog = new TpchCatalog(0.1)) {
            ExecutionPlan scan = catalog.table("lineitem").orElseThrow().scan(ScanRequest.all(4));
            ExecutionPlan groupBy = groupBy(scan, List.of("l_orderkey", "l_partkey"),
                    List.of(new AggregateExpr(AggregateFunction.COUNT, List.of(), false, "cnt", QuiverTypes.INT64)), 4);
            DistributedPlanner eight = new DistributedPlanner(DistributedPlannerSettings.defaults(8, 4));
            AggregateMemorySizingHandler handler = new AggregateMemorySizingHandler();
            DistributedPlan roomy = ExactFixtures.plan(eight, groupBy, new StageEventDispatcher(List.of(handler)), "q1",
                    Collections.nCopies(8, GIB)).plan();
            DistributedPlan tight = ExactFixtures.plan(eight, groupBy, new StageEventDispatcher(List.of(handler)), "q1",
                    Collections.nCopies(8, 24L << 20)).plan();
            Stage roomyAggregate = roomy.stages().stream().filter(stage -> stage.taskCountHint().origin().contains("AggregateMemorySizingHandler"))
                    .findFirst().orElseThrow();
            Stage tightAggregate = tight.stages().stream().filter(stage -> stage.taskCountHint().origin().contains("AggregateMemorySizingHandler"))
                    .findFirst().orElseThrow();
            assertThat(roomyAggregate.taskCount()).isEqualTo(1);
            assertThat(tightAggregate.taskCount()).isGreaterThan(1).isLessThanOrEqualTo(8);
        }
    }
}
