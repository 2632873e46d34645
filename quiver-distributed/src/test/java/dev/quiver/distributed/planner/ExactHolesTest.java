package dev.quiver.distributed.planner;

import static dev.quiver.distributed.planner.ExactFixtures.groupBy;
import static dev.quiver.distributed.planner.ExactFixtures.onBuilt;
import static dev.quiver.distributed.planner.ExactFixtures.table;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.distributed.aqe.CostModel;
import dev.quiver.distributed.aqe.SampledStatistics;
import dev.quiver.distributed.event.DynamicStageBuiltEvent;
import dev.quiver.distributed.event.DynamicStageBuiltEventResponse;
import dev.quiver.distributed.event.PlanningMode;
import dev.quiver.distributed.event.StageBoundary;
import dev.quiver.distributed.event.StageEventHandler;
import dev.quiver.distributed.event.StageSampledEvent;
import dev.quiver.distributed.event.StageSampledEventResponse;
import dev.quiver.distributed.plan.DistributedPlan;
import dev.quiver.distributed.plan.DistributedPlannerSettings;
import dev.quiver.distributed.plan.Stage;
import dev.quiver.distributed.plan.StageFragment;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.stats.Statistics;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The holes issue 12 found in the exact-count guarantees, each closed: a {@code P_c × n} past
 * {@code distributed.max_partitions_per_task}, a count of 0, exact and desired in one response, and
 * a sampled answer that would lower or drop a stage-built exact all fail with a user error naming
 * the handler and the other origin; none is an INTERNAL_ERROR or silently changes the plan.
 */
class ExactHolesTest {
    private static final long GIB = 1L << 30;
    private static final int WORKERS = 4;
    private final DistributedPlanner planner = ExactFixtures.planner(WORKERS, 4);
    private final ExecutionPlan query = groupBy(table(10_000, 4), List.of("k"), List.of(), 4);

    private static StagePlanningLoop.Result plan(DistributedPlanner planner, ExecutionPlan query, StageEventHandler... handlers) {
        return planner.plan(query, StageEvents.of(new StageEventDispatcher(List.of(handlers)), "q1", Collections.nCopies(WORKERS, GIB)));
    }

    private static StageEventHandler answering(String name, Function<DynamicStageBuiltEvent, DynamicStageBuiltEventResponse> answer) {
        return onBuilt(name, answer);
    }

    @Test
    void aPcTimesNPastMaxPartitionsPerTaskFailsPlanningNamingTheHandlerAndTheSetting() {
        // withExactConsumerTasks(2, 20000) used to plan 40 000-way hash partitioning
        assertThatThrownBy(() -> plan(planner, query, answering("wide", event -> DynamicStageBuiltEventResponse.unchanged().withExactConsumerTasks(2, 20_000))))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.TASK_COUNT_CONFLICT))
                .hasMessageContaining("handler wide (stage 0 → stage 1)").hasMessageContaining("P_c=20000")
                .hasMessageContaining("40000 hash partitions").hasMessageContaining("setting distributed.max_partitions_per_task=8192");
        // and 1 << 30 used to overflow into an ArithmeticException (INTERNAL_ERROR)
        assertThatThrownBy(() -> plan(planner, query, answering("huge", event -> DynamicStageBuiltEventResponse.unchanged().withExactConsumerTasks(4, 1 << 30))))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.TASK_COUNT_CONFLICT))
                .hasMessageContaining("handler huge (stage 0 → stage 1)").hasMessageContaining("setting distributed.max_partitions_per_task=8192");
        // exactly at the limit plans, and the producers write that many partitions
        DistributedPlanner narrow = new DistributedPlanner(DistributedPlannerSettings.defaults(WORKERS, 4).withBytesPerPartitionForScans(1)
                .withMaxPartitionsPerTask(12));
        DistributedPlan atLimit = plan(narrow, query, answering("fits", event -> DynamicStageBuiltEventResponse.unchanged().withExactConsumerTasks(3))).plan();
        assertThat(atLimit.stage(1).taskCount()).isEqualTo(3);
        assertThat(atLimit.stage(0).output().orElseThrow().partitionsPerConsumerTask() * atLimit.stage(1).taskCount()).isEqualTo(12);
        assertThatThrownBy(() -> plan(narrow, query, answering("over", event -> DynamicStageBuiltEventResponse.unchanged().withExactConsumerTasks(4))))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.TASK_COUNT_CONFLICT))
                .hasMessageContaining("handler over (stage 0 → stage 1)").hasMessageContaining("setting distributed.max_partitions_per_task=12");
    }

    @Test
    void anAdvisoryConsumerCountIsClampedByMaxPartitionsPerTask() {
        // without handlers the consumer wants as many tasks as the scan (4); P_c=4 and at most 8 partitions per producer task allow 2
        DistributedPlanner narrow = new DistributedPlanner(DistributedPlannerSettings.defaults(WORKERS, 4).withBytesPerPartitionForScans(1)
                .withMaxPartitionsPerTask(8));
        DistributedPlan plan = narrow.plan(query);
        assertThat(plan.stage(0).taskCount()).isEqualTo(4);
        assertThat(plan.stage(1).taskCount()).isEqualTo(2);
        assertThat(plan.stage(1).taskCountHint().origin()).contains("clamped by setting distributed.max_partitions_per_task=8 over P_c=4");
    }

    @Test
    void aCountOfZeroIsAUserErrorNamingTheHandler() {
        assertThatThrownBy(() -> plan(planner, query, answering("zero", event -> DynamicStageBuiltEventResponse.unchanged().withExactConsumerTasks(0))))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                .hasMessageContaining("handler zero failed the query at stage 0 → stage 1").hasMessageContaining("Exact(0)")
                .hasMessageContaining("at least one task");
        assertThatThrownBy(() -> plan(planner, query, answering("no-pc", event -> DynamicStageBuiltEventResponse.unchanged().withExactConsumerTasks(2, 0))))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                .hasMessageContaining("handler no-pc").hasMessageContaining("P_c must be at least 1");
        assertThatThrownBy(() -> plan(planner, query, answering("silent", event -> null)))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                .hasMessageContaining("handler silent").hasMessageContaining("no response");
    }

    @Test
    void aResponseRefusesAnExactAndADesiredCountTogether() {
        // .withExact(3).withDesired(5) used to drop the exact silently
        assertThatThrownBy(() -> DynamicStageBuiltEventResponse.unchanged().withExactConsumerTasks(3).withDesiredConsumerTasks(5))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                .hasMessageContaining("Exact(3)").hasMessageContaining("Desired(5)");
        assertThatThrownBy(() -> plan(planner, query, answering("both", event -> DynamicStageBuiltEventResponse.unchanged().withExactConsumerTasks(3)
                .withDesiredConsumerTasks(5))))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                .hasMessageContaining("handler both").hasMessageContaining("Exact(3)").hasMessageContaining("Desired(5)");
    }

    @Test
    void aSampledAnswerMayRaiseOrConfirmAStageBuiltExactButNeverLowerOrDropIt() {
        List<StageFragment> fragments = planner.cut(query);
        StageBoundary boundary = ExactFixtures.boundary(fragments, 0, planner, GIB, PlanningMode.ADAPTIVE);
        Stage producer = ExactFixtures.sizeStatic(planner, fragments.get(0), List.of(), List.of());
        DynamicStageBuiltEvent built = StageBoundaries.builtEvent(boundary, fragments.get(0).plan(), producer.taskCount(), new CostModel());
        SampledStatistics sample = new SampledStatistics(0, 10_000, 80_000, 1000, 2000, 0.2, 4, 4, 16, false, Statistics.unknown(fragments.get(0).plan().schema()));
        StageSampledEvent sampled = new StageSampledEvent(boundary, fragments.get(0).plan(), producer.taskCount(), sample, OptionalInt.of(3));

        for (StageSampledEventResponse allowed : List.of(StageSampledEventResponse.exactConsumerTasks(3), StageSampledEventResponse.exactConsumerTasks(4),
                StageSampledEventResponse.unchanged())) {
            StageEventDispatcher dispatcher = new StageEventDispatcher(List.of(refining("refiner", allowed)));
            BoundaryRequirements after = dispatcher.onStageSampled(sampled, dispatcher.onStageBuilt(built).requirements());
            assertThat(after.exact().orElseThrow().taskCount()).as("after %s", allowed).isEqualTo(allowed.consumerTasks().map(c -> c.tasks()).orElse(3));
        }
        for (StageSampledEventResponse refused : List.of(StageSampledEventResponse.exactConsumerTasks(2), StageSampledEventResponse.desiredConsumerTasks(5))) {
            StageEventDispatcher dispatcher = new StageEventDispatcher(List.of(refining("refiner", refused)));
            BoundaryRequirements before = dispatcher.onStageBuilt(built).requirements();
            assertThatThrownBy(() -> dispatcher.onStageSampled(sampled, before)).as("after %s", refused)
                    .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.TASK_COUNT_CONFLICT))
                    .hasMessageContaining("handler refiner (stage 0 → stage 1)").hasMessageContaining("stage-sampled event with "
                            + refused.consumerTasks().orElseThrow()).hasMessageContaining("Exact(3) at the stage-built event");
        }
    }

    /** A handler that requires 3 tasks when the stage is built and answers its sample with {@code sampled}. */
    private static StageEventHandler refining(String name, StageSampledEventResponse sampled) {
        return new StageEventHandler() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public DynamicStageBuiltEventResponse onStageBuilt(DynamicStageBuiltEvent event) {
                return DynamicStageBuiltEventResponse.unchanged().withExactConsumerTasks(3);
            }

            @Override
            public StageSampledEventResponse onStageSampled(StageSampledEvent event) {
                return sampled;
            }
        };
    }
}
