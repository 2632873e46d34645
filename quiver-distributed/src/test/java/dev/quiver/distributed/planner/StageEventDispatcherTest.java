package dev.quiver.distributed.planner;

import static dev.quiver.distributed.planner.ExactFixtures.boundary;
import static dev.quiver.distributed.planner.ExactFixtures.col;
import static dev.quiver.distributed.planner.ExactFixtures.groupBy;
import static dev.quiver.distributed.planner.ExactFixtures.onBuilt;
import static dev.quiver.distributed.planner.ExactFixtures.planner;
import static dev.quiver.distributed.planner.ExactFixtures.table;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.distributed.aqe.AdaptiveTaskCount;
import dev.quiver.distributed.aqe.CostModel;
import dev.quiver.distributed.aqe.SampledStatistics;
import dev.quiver.distributed.event.DynamicStageBuiltEvent;
import dev.quiver.distributed.event.DynamicStageBuiltEventResponse;
import dev.quiver.distributed.event.PlanningMode;
import dev.quiver.distributed.event.StageBoundary;
import dev.quiver.distributed.event.StageEventHandler;
import dev.quiver.distributed.event.StageSampledEvent;
import dev.quiver.distributed.event.StageSampledEventResponse;
import dev.quiver.distributed.operator.BoundaryKind;
import dev.quiver.distributed.plan.Stage;
import dev.quiver.distributed.plan.StageFragment;
import dev.quiver.distributed.plan.TaskCountHint;
import dev.quiver.distributed.plan.TaskCountHints;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.operator.ProjectionExec;
import dev.quiver.engine.operator.UnionExec;
import dev.quiver.engine.operator.exchange.RepartitionExec;
import dev.quiver.engine.operator.join.JoinType;
import dev.quiver.engine.operator.join.NestedLoopJoinExec;
import dev.quiver.engine.stats.Statistics;
import dev.quiver.engine.testing.OpaqueScanExec;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class StageEventDispatcherTest {
    private static final long GIB = 1L << 30;
    private final DistributedPlanner planner = planner(4, 4);
    private final List<StageFragment> fragments = planner.cut(groupBy(table(10_000, 4), List.of("k"), List.of(), 4));

    private static StageEventHandler sampled(String name, int built, StageSampledEventResponse answer) {
        return new StageEventHandler() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public DynamicStageBuiltEventResponse onStageBuilt(DynamicStageBuiltEvent event) {
                return DynamicStageBuiltEventResponse.unchanged().withExactConsumerTasks(built);
            }

            @Override
            public StageSampledEventResponse onStageSampled(StageSampledEvent event) {
                return answer;
            }
        };
    }

    private StageBoundary shuffle(PlanningMode mode) {
        return boundary(fragments, 0, planner, GIB, mode);
    }

    private DynamicStageBuiltEvent event(StageBoundary boundary) {
        Stage producer = ExactFixtures.sizeStatic(planner, fragments.get(0), List.of(), List.of());
        return StageBoundaries.builtEvent(boundary, fragments.get(0).plan(), producer.taskCount(), new CostModel());
    }

    /** An identity projection: same schema, a different plan. */
    private static ExecutionPlan identity(ExecutionPlan plan) {
        List<PhysicalExpr> exprs = new ArrayList<>();
        List<String> names = new ArrayList<>();
        plan.schema().getFields().forEach(field -> {
            exprs.add(col(plan, field.getName()));
            names.add(field.getName());
        });
        return new ProjectionExec(exprs, names, plan);
    }

    @Test
    void handlersRunInRegistrationOrderEachSeeingThePreviousPlan() {
        List<String> calls = new CopyOnWriteArrayList<>();
        List<ExecutionPlan> seen = new CopyOnWriteArrayList<>();
        List<ExecutionPlan> returned = new CopyOnWriteArrayList<>();
        Function<String, StageEventHandler> rewriter = name -> onBuilt(name, event -> {
            calls.add(name);
            seen.add(event.producerPlan());
            ExecutionPlan next = identity(event.producerPlan());
            returned.add(next);
            return DynamicStageBuiltEventResponse.rewritten(next);
        });
        StageEventDispatcher dispatcher = new StageEventDispatcher(List.of(rewriter.apply("first"), rewriter.apply("second"), rewriter.apply("third")));

        StageBuiltOutcome outcome = dispatcher.onStageBuilt(event(shuffle(PlanningMode.STATIC)));

        assertThat(calls).containsExactly("first", "second", "third");
        assertThat(seen.get(0)).isSameAs(fragments.get(0).plan());
        assertThat(seen.get(1)).isSameAs(returned.get(0));
        assertThat(seen.get(2)).isSameAs(returned.get(1));
        assertThat(outcome.producerPlan()).isSameAs(returned.get(2));
        assertThat(outcome.rewritten()).isTrue();
        // the loop re-sizes the rewritten fragment: its plan is the last rewrite, its boundary unchanged
        StageFragment again = outcome.applyTo(fragments.get(0));
        assertThat(again.plan()).isSameAs(returned.get(2));
        assertThat(again.outputKeys()).isEqualTo(fragments.get(0).outputKeys());
        Stage resized = ExactFixtures.sizeStatic(planner, again, List.of(), List.of());
        assertThat(resized.plan().schema()).isEqualTo(fragments.get(0).plan().schema());
    }

    @Test
    void exactBeatsAqeAndOtherHandlersAdvisoryCounts() {
        StageEventDispatcher dispatcher = new StageEventDispatcher(List.of(
                onBuilt("wants-four", event -> DynamicStageBuiltEventResponse.unchanged().withDesiredConsumerTasks(4)),
                onBuilt("needs-two", event -> DynamicStageBuiltEventResponse.unchanged().withExactConsumerTasks(2))));
        for (PlanningMode mode : PlanningMode.values()) {
            StageBoundary boundary = shuffle(mode);
            BoundaryRequirements requirements = dispatcher.onStageBuilt(event(boundary)).requirements();
            // AQE's cost alone would give the limit, 4 tasks
            TaskCountHint.Desired aqe = AdaptiveTaskCount.desired(1L << 40, 16L << 20, 4, boundary.maxTasksPerStage());
            assertThat(aqe.taskCount()).isEqualTo(4);
            List<TaskCountHint> hints = new ArrayList<>(boundary.consumerHints());
            hints.add(aqe);
            hints.addAll(requirements.hints());
            TaskCountHint merged = TaskCountHints.merge("stage 1", hints, boundary.maxTasksPerStage(), boundary.maxTasksOrigin());
            assertThat(merged).isInstanceOf(TaskCountHint.Exact.class);
            assertThat(merged.taskCount()).isEqualTo(2);
            assertThat(merged.origin()).contains("handler needs-two");

            // and the consumer is sized (never coalesced below, never above) to exactly 2 tasks; statically the shuffle input's Desired(4) loses too
            Stage producer = ExactFixtures.sizeStatic(planner, fragments.get(0), List.of(), List.of());
            List<TaskCountHint> extra = new ArrayList<>(requirements.hints());
            extra.add(aqe);
            extra.addAll(ExactFixtures.statistics(planner, mode).advise(fragments.get(1), List.of(producer)).hints());
            Stage consumer = planner.size(fragments.get(1), List.of(producer), extra);
            assertThat(producer.taskCount()).isEqualTo(4);
            assertThat(consumer.taskCount()).isEqualTo(2);
        }
    }

    @Test
    void twoHandlersWithDifferentExactsFailNamingBoth() {
        StageEventDispatcher dispatcher = new StageEventDispatcher(List.of(
                onBuilt("alpha", event -> DynamicStageBuiltEventResponse.unchanged().withExactConsumerTasks(2)),
                onBuilt("beta", event -> DynamicStageBuiltEventResponse.unchanged().withExactConsumerTasks(3))));
        assertThatThrownBy(() -> dispatcher.onStageBuilt(event(shuffle(PlanningMode.ADAPTIVE))))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.TASK_COUNT_CONFLICT))
                .hasMessageContaining("handler alpha").hasMessageContaining("handler beta").hasMessageContaining("2").hasMessageContaining("3");

        // the same exact from two handlers agrees
        StageEventDispatcher agreeing = new StageEventDispatcher(List.of(
                onBuilt("alpha", event -> DynamicStageBuiltEventResponse.unchanged().withExactConsumerTasks(3)),
                onBuilt("beta", event -> DynamicStageBuiltEventResponse.unchanged().withExactConsumerTasks(3))));
        assertThat(agreeing.onStageBuilt(event(shuffle(PlanningMode.ADAPTIVE))).requirements().exact().orElseThrow().taskCount()).isEqualTo(3);
    }

    @Test
    void exactAgainstAOneTaskConsumerFailsNamingBothOrigins() {
        // a FULL nested-loop join over the final aggregate: the consumer stage must be one task (Exact(1) from the join)
        ExecutionPlan joined = new NestedLoopJoinExec(groupBy(table(10_000, 4), List.of("k"), List.of(), 4), table(100, 2), JoinType.FULL, Optional.empty());
        assertOneTaskConsumerRefusesExact(planner, planner.cut(joined), "NestedLoopJoinExec(FULL)");
    }

    @Test
    void exactAgainstAnUnsplittableLeafInTheConsumerFailsNamingBothOrigins() {
        // the consumer unions the final aggregate with a scan no TaskEstimator knows: Exact(1) from the leaf
        ExecutionPlan scan = new OpaqueScanExec(table(100, 2));
        ExecutionPlan union = new UnionExec(List.of(groupBy(table(10_000, 4), List.of("k"), List.of(), 4),
                new ProjectionExec(List.of(col(scan, "k")), List.of("k"), scan)));
        assertOneTaskConsumerRefusesExact(planner, planner.cut(union), "has no TaskEstimator");
    }

    private static void assertOneTaskConsumerRefusesExact(DistributedPlanner planner, List<StageFragment> cut, String oneTaskOrigin) {
        StageFragment producer = cut.stream().filter(fragment -> !fragment.isHead() && fragment.outputKind().get() == BoundaryKind.SHUFFLE)
                .findFirst().orElseThrow();
        StageBoundary boundary = boundary(cut, producer.stageId(), planner, GIB, PlanningMode.STATIC);
        assertThat(boundary.consumerHints()).anySatisfy(hint -> {
            assertThat(hint).isInstanceOf(TaskCountHint.Exact.class);
            assertThat(hint.taskCount()).isEqualTo(1);
            assertThat(hint.origin()).contains(oneTaskOrigin);
        });
        StageEventDispatcher dispatcher = new StageEventDispatcher(List.of(
                onBuilt("needs-three", event -> DynamicStageBuiltEventResponse.unchanged().withExactConsumerTasks(3))));
        DynamicStageBuiltEvent event = StageBoundaries.builtEvent(boundary, producer.plan(), 4, new CostModel());

        assertThatThrownBy(() -> dispatcher.onStageBuilt(event))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.TASK_COUNT_CONFLICT))
                .hasMessageContaining("handler needs-three").hasMessageContaining(oneTaskOrigin);
    }

    @Test
    void exactAboveTheLimitFailsWhenReturnedAndExactlyAtTheLimitIsSized() {
        StageEventDispatcher above = new StageEventDispatcher(List.of(
                onBuilt("greedy", event -> DynamicStageBuiltEventResponse.unchanged().withExactConsumerTasks(5))));
        assertThatThrownBy(() -> above.onStageBuilt(event(shuffle(PlanningMode.ADAPTIVE))))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.TASK_COUNT_CONFLICT))
                .hasMessageContaining("handler greedy").hasMessageContaining("exactly 5").hasMessageContaining("limit of 4")
                .hasMessageContaining("distributed.max_tasks_per_stage=0 (the 4 workers)");

        StageEventDispatcher atLimit = new StageEventDispatcher(List.of(
                onBuilt("fits", event -> DynamicStageBuiltEventResponse.unchanged().withExactConsumerTasks(4))));
        BoundaryRequirements requirements = atLimit.onStageBuilt(event(shuffle(PlanningMode.ADAPTIVE))).requirements();
        Stage producer = ExactFixtures.sizeStatic(planner, fragments.get(0), List.of(), List.of());
        Stage consumer = planner.size(fragments.get(1), List.of(producer), requirements.hints());
        assertThat(consumer.taskCount()).isEqualTo(4);
        assertThat(consumer.taskCountHint()).isInstanceOf(TaskCountHint.Exact.class);

        // an explicit max_tasks_per_stage above the worker count is the limit then
        DistributedPlanner wide = new DistributedPlanner(planner.settings().withMaxTasksPerStage(6));
        StageBoundary wider = boundary(fragments, 0, wide, GIB, PlanningMode.ADAPTIVE);
        assertThat(above.onStageBuilt(event(wider)).requirements().exact().orElseThrow().taskCount()).isEqualTo(5);
    }

    @Test
    void aRewriteThatTouchesTheProducerHeadOrItsSchemaIsRefused() {
        List<PhysicalExpr> keys = fragments.get(0).outputKeys();
        StageEventDispatcher head = new StageEventDispatcher(List.of(
                onBuilt("own-head", event -> DynamicStageBuiltEventResponse.rewritten(new RepartitionExec(event.producerPlan(), new Partitioning.Hash(keys, 8))))));
        assertThatThrownBy(() -> head.onStageBuilt(event(shuffle(PlanningMode.STATIC))))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.PLAN_ERROR))
                .hasMessageContaining("handler own-head").hasMessageContaining("producer head");

        StageEventDispatcher renamed = new StageEventDispatcher(List.of(onBuilt("renamer", event -> DynamicStageBuiltEventResponse.rewritten(
                new ProjectionExec(List.of(col(event.producerPlan(), "k")), List.of("key"), event.producerPlan())))));
        assertThatThrownBy(() -> renamed.onStageBuilt(event(shuffle(PlanningMode.STATIC))))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.PLAN_ERROR))
                .hasMessageContaining("handler renamer").hasMessageContaining("schema");
    }

    @Test
    void anErrorResponseOrAThrowingHandlerFailsTheQueryNamingTheHandler() {
        StageEventDispatcher refusing = new StageEventDispatcher(List.of(onBuilt("refuser", event -> DynamicStageBuiltEventResponse.error(
                new QuiverException(ErrorCode.EXCEEDED_MEMORY_LIMIT, "too many groups")))));
        assertThatThrownBy(() -> refusing.onStageBuilt(event(shuffle(PlanningMode.STATIC))))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.EXCEEDED_MEMORY_LIMIT))
                .hasMessageContaining("handler refuser").hasMessageContaining("too many groups").hasMessageContaining("stage 0 → stage 1");

        StageEventDispatcher throwing = new StageEventDispatcher(List.of(onBuilt("buggy", event -> {
            throw new IllegalStateException("boom");
        })));
        assertThatThrownBy(() -> throwing.onStageBuilt(event(shuffle(PlanningMode.STATIC))))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INTERNAL_ERROR))
                .hasMessageContaining("handler buggy").hasMessageContaining("boom");
    }

    @Test
    void aSampledCountReplacesTheHandlersOwnBuiltCountButConflictsWithAnotherHandlers() {
        StageBoundary boundary = shuffle(PlanningMode.ADAPTIVE);
        SampledStatistics sample = new SampledStatistics(0, 10_000, 80_000, 1000, 2000, 0.2, 4, 4, 16, false, Statistics.unknown(fragments.get(0).plan().schema()));
        StageSampledEvent sampledEvent = new StageSampledEvent(boundary, fragments.get(0).plan(), 4, sample);

        StageEventDispatcher refining = new StageEventDispatcher(List.of(sampled("refiner", 2, StageSampledEventResponse.exactConsumerTasks(3))));
        BoundaryRequirements built = refining.onStageBuilt(event(boundary)).requirements();
        assertThat(built.exact().orElseThrow().taskCount()).isEqualTo(2);
        BoundaryRequirements after = refining.onStageSampled(sampledEvent, built);
        assertThat(after.exact().orElseThrow().taskCount()).isEqualTo(3);
        assertThat(after.hints()).hasSize(1);

        StageEventDispatcher two = new StageEventDispatcher(List.of(sampled("early", 2, StageSampledEventResponse.unchanged()),
                onBuilt("late", event -> DynamicStageBuiltEventResponse.unchanged()),
                new StageEventHandler() {
                    @Override
                    public String name() {
                        return "sampler-side";
                    }

                    @Override
                    public StageSampledEventResponse onStageSampled(StageSampledEvent event) {
                        return StageSampledEventResponse.exactConsumerTasks(4);
                    }
                }));
        BoundaryRequirements twoBuilt = two.onStageBuilt(event(boundary)).requirements();
        assertThatThrownBy(() -> two.onStageSampled(sampledEvent, twoBuilt))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.TASK_COUNT_CONFLICT))
                .hasMessageContaining("handler early").hasMessageContaining("handler sampler-side");
    }
}
