package dev.quiver.distributed.planner;

import static dev.quiver.distributed.planner.ExactFixtures.groupBy;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.distributed.aqe.AdaptiveTaskCount;
import dev.quiver.distributed.aqe.CostModel;
import dev.quiver.distributed.aqe.SampledStatistics;
import dev.quiver.distributed.aqe.StageSampleCollector;
import dev.quiver.distributed.event.PlanningMode;
import dev.quiver.distributed.event.StageBoundary;
import dev.quiver.distributed.event.StageEventHandler;
import dev.quiver.distributed.event.StageSampledEvent;
import dev.quiver.distributed.event.StageSampledEventResponse;
import dev.quiver.distributed.operator.SampleSink;
import dev.quiver.distributed.operator.SamplerExec;
import dev.quiver.distributed.operator.StageInputExec;
import dev.quiver.distributed.plan.DistributedPlannerSettings;
import dev.quiver.distributed.plan.Stage;
import dev.quiver.distributed.plan.StageFragment;
import dev.quiver.distributed.plan.TaskCountHint;
import dev.quiver.distributed.protocol.PartitionSample;
import dev.quiver.distributed.protocol.ProducerHead;
import dev.quiver.engine.execution.ExecutionConfig;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.operator.aggregate.AggregateExpr;
import dev.quiver.engine.operator.aggregate.AggregateFunction;
import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.engine.spi.ScanRequest;
import dev.quiver.engine.stats.Statistics;
import dev.quiver.engine.testing.TestingContext;
import dev.quiver.engine.types.QuiverTypes;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * DESIGN §5 steps 1–6 with the stage events at step 3 and after sampling, walked by hand through
 * the pieces the adaptive coordinator loop uses: real TPC-H data is sampled under the producer, the sampled
 * statistics give AQE one consumer task, and the handler's exact count, set from the key sketch,
 * wins.
 */
class AdaptiveSequenceTest {
    private static final int WORKERS = 4;
    private static final int PARTITIONS = 4;
    private static final long BUDGET = 16L << 20;

    @Test
    void anExactCountFromTheKeySketchBeatsTheSampledAdvisoryCount() {
        try (TpchCatalog catalog = new TpchCatalog(0.01); TestingContext testing = new TestingContext()) {
            ExecutionPlan scan = catalog.table("lineitem").orElseThrow().scan(ScanRequest.all(PARTITIONS));
            ExecutionPlan query = groupBy(scan, List.of("l_orderkey"), List.of(new AggregateExpr(AggregateFunction.COUNT, List.of(), false, "cnt",
                    QuiverTypes.INT64)), PARTITIONS);
            DistributedPlanner planner = new DistributedPlanner(DistributedPlannerSettings.defaults(WORKERS, PARTITIONS));
            List<StageFragment> fragments = planner.cut(query);
            CostModel costs = new CostModel();
            // a handler that wants one consumer task per 5000 groups, from the sketch
            StageEventHandler perGroups = new StageEventHandler() {
                @Override
                public String name() {
                    return "per-5000-groups";
                }

                @Override
                public StageSampledEventResponse onStageSampled(StageSampledEvent event) {
                    return StageSampledEventResponse.exactConsumerTasks((int) Math.min(event.boundary().maxTasksPerStage(),
                            Math.max(1, (event.sampled().distinctKeys() + 4999) / 5000)));
                }
            };
            StageEventDispatcher dispatcher = new StageEventDispatcher(List.of(perGroups));

            // steps 1-2: the producer's cost gives its task count
            StageFragment producerFragment = fragments.get(0);
            TaskCountHint.Desired producerCost = AdaptiveTaskCount.desired(costs.cost(producerFragment.plan()).costBytes(), BUDGET, PARTITIONS,
                    planner.settings().effectiveMaxTasksPerStage());
            Stage producer = planner.size(producerFragment, List.of(), List.of(producerCost));
            // step 3: the stage-built event (this handler leaves it alone)
            StageBoundary boundary = ExactFixtures.boundaryOf("q1", producerFragment, fragments, planner, Collections.nCopies(WORKERS, 1L << 30),
                    PlanningMode.ADAPTIVE).orElseThrow();
            StageBuiltOutcome built = dispatcher.onStageBuilt(StageBoundaries.builtEvent(boundary, producerFragment.plan(), producer.taskCount(), costs));
            assertThat(built.requirements().counts()).isEmpty();

            // steps 4-5: sample under the head, extrapolate
            SampledStatistics sampled = sample(testing, producer, producerFragment);
            assertThat((double) sampled.distinctKeys()).isBetween(15000 * 0.75, 15000 * 1.25);
            BoundaryRequirements requirements = dispatcher.onStageSampled(
                    new StageSampledEvent(boundary, producerFragment.plan(), producer.taskCount(), sampled), built.requirements());
            assertThat(requirements.exact().orElseThrow().taskCount()).isEqualTo(3);

            // step 6 and the consumer: the sampled statistics on its input give AQE one task; the exact count wins
            StageFragment consumerFragment = withInputStatistics(fragments.get(1), sampled.statistics());
            TaskCountHint.Desired consumerCost = AdaptiveTaskCount.desired(costs.cost(consumerFragment.plan()).costBytes(), BUDGET, PARTITIONS,
                    planner.settings().effectiveMaxTasksPerStage());
            assertThat(consumerCost.taskCount()).isEqualTo(1);
            List<TaskCountHint> hints = new ArrayList<>(requirements.hints());
            hints.add(consumerCost);
            Stage consumer = planner.size(consumerFragment, List.of(producer), hints);
            assertThat(consumer.taskCount()).isEqualTo(3);
            assertThat(consumer.taskCountHint().origin()).isEqualTo("handler per-5000-groups (stage 0 → stage 1)");

            // the producer, already running, is bound to the head the consumer reads
            ProducerHead head = ShuffleLayout.of(producer, consumer.taskCount(), requirements).producerHead();
            for (ExecutionPlan task : consumer.taskPlans()) {
                assertThat(input(task).producerHead()).isEqualTo(head);
            }
            assertThat(head).isEqualTo(new ProducerHead.Shuffle(producerFragment.outputKeys(), PARTITIONS, 3));
        }
    }

    private static SampledStatistics sample(TestingContext testing, Stage producer, StageFragment fragment) {
        StageSampleCollector collector = StageSampleCollector.forStage(producer);
        for (int task = 0; task < producer.taskCount(); task++) {
            SamplerExec sampler = new SamplerExec(producer.taskPlans().get(task), fragment.outputKeys(), 1L << 20);
            try (TaskContext context = new TaskContext("q1", testing.allocator(), testing.pool(), testing.context().executor(),
                    new ExecutionConfig(ExecutionConfig.DEFAULT_BATCH_SIZE, PARTITIONS), Map.of(SampleSink.class, (SampleSink) sample -> { }))) {
                for (int partition = 0; partition < producer.partitionsPerTask(); partition++) {
                    Optional<PartitionSample> sample = sampler.sample(partition, context);
                    collector.offer(task, sample.orElseThrow());
                }
            }
        }
        return collector.estimate().orElseThrow();
    }

    private static StageFragment withInputStatistics(StageFragment fragment, Statistics statistics) {
        return fragment.withPlan(replace(fragment.plan(), statistics));
    }

    private static ExecutionPlan replace(ExecutionPlan plan, Statistics statistics) {
        if (plan instanceof StageInputExec input) {
            return input.withStatistics(statistics);
        }
        if (plan.children().isEmpty()) {
            return plan;
        }
        return plan.withNewChildren(plan.children().stream().map(child -> replace(child, statistics)).toList());
    }

    private static StageInputExec input(ExecutionPlan plan) {
        if (plan instanceof StageInputExec input) {
            return input;
        }
        return plan.children().stream().map(AdaptiveSequenceTest::input).filter(found -> found != null).findFirst().orElse(null);
    }
}
