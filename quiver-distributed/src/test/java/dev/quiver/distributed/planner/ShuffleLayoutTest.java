package dev.quiver.distributed.planner;

import static dev.quiver.distributed.planner.ExactFixtures.boundary;
import static dev.quiver.distributed.planner.ExactFixtures.col;
import static dev.quiver.distributed.planner.ExactFixtures.groupBy;
import static dev.quiver.distributed.planner.ExactFixtures.planner;
import static dev.quiver.distributed.planner.ExactFixtures.table;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.distributed.aqe.CostModel;
import dev.quiver.distributed.event.ConsumerTasks;
import dev.quiver.distributed.event.PlanningMode;
import dev.quiver.distributed.event.StageBoundary;
import dev.quiver.distributed.operator.BoundaryKind;
import dev.quiver.distributed.operator.RemotePartition;
import dev.quiver.distributed.operator.StageInputExec;
import dev.quiver.distributed.plan.DistributedPlan;
import dev.quiver.distributed.plan.Stage;
import dev.quiver.distributed.plan.StageConsistency;
import dev.quiver.distributed.plan.StageFragment;
import dev.quiver.distributed.protocol.ProducerHead;
import dev.quiver.distributed.protocol.WorkerAddress;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.execution.PlanTree;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.operator.exchange.RepartitionExec;
import dev.quiver.engine.operator.join.HashJoinExec;
import dev.quiver.engine.operator.join.JoinType;
import dev.quiver.engine.operator.join.PartitionMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The producer's output, the consumer's inputs and the producer head of an exact consumer count, derived from one layout. */
class ShuffleLayoutTest {
    private static final long GIB = 1L << 30;
    private static final List<WorkerAddress> WORKERS = IntStream.range(0, 4).mapToObj(i -> new WorkerAddress("127.0.0.1", 9000 + i)).toList();
    private final DistributedPlanner planner = planner(4, 4);
    private final ExecutionPlan query = groupBy(table(10_000, 4), List.of("k"), List.of(), 4);
    private final List<StageFragment> fragments = planner.cut(query);

    /** Sizes the query with {@code requirements} on the shuffle: producer, layout, consumer (reading the layout's {@code P_c}), head. */
    private DistributedPlan sized(BoundaryRequirements requirements, int consumerTasks) {
        Stage producer = ExactFixtures.sizeStatic(planner, fragments.get(0), List.of(), List.of());
        ShuffleLayout layout = ShuffleLayout.of(producer, consumerTasks, requirements);
        Stage boundProducer = layout.producerStage(producer);
        Stage consumer = planner.size(layout.consumerFragment(fragments.get(1)), List.of(boundProducer), requirements.hints());
        Stage head = ExactFixtures.sizeStatic(planner, fragments.get(2), List.of(boundProducer, consumer), List.of());
        DistributedPlan plan = new DistributedPlan(query, List.of(boundProducer, consumer, head));
        StageConsistency.check(plan);
        return plan;
    }

    private BoundaryRequirements exact(ConsumerTasks tasks) {
        StageBoundary boundary = boundary(fragments, 0, planner, GIB, PlanningMode.ADAPTIVE);
        return BoundaryRequirements.none(boundary).with("sizer", tasks);
    }

    @Test
    void consumerTaskTReadsItsPcRangeOfEveryProducerTaskUnderTheBoundHead() {
        BoundaryRequirements requirements = exact(ConsumerTasks.exact(3, 2));
        DistributedPlan plan = sized(requirements, 3);
        Stage producer = plan.stage(0);
        Stage consumer = plan.stage(1);
        ShuffleLayout layout = ShuffleLayout.of(producer, 3, requirements);

        assertThat(consumer.taskCount()).isEqualTo(3);
        assertThat(consumer.partitionsPerTask()).isEqualTo(2);
        ProducerHead.Shuffle head = layout.producerHead();
        assertThat(head).isEqualTo(new ProducerHead.Shuffle(fragments.get(0).outputKeys(), 2, 3));
        assertThat(head.outputPartitions(producer.partitionsPerTask())).isEqualTo(6);

        List<Integer> covered = new ArrayList<>();
        for (int t = 0; t < consumer.taskCount(); t++) {
            StageInputExec input = inputOf(consumer.taskPlans().get(t));
            assertThat(input.producerHead()).isEqualTo(head);
            StageInputExec bound = input.bind("q1", t, WORKERS.subList(0, producer.taskCount()));
            for (int p = 0; p < input.partitionsPerConsumerTask(); p++) {
                List<RemotePartition> sources = bound.sourcesOf(p);
                assertThat(sources).hasSize(producer.taskCount());
                for (int task = 0; task < sources.size(); task++) {
                    RemotePartition source = sources.get(task);
                    assertThat(source.ticket().producerTask().taskIndex()).isEqualTo(task);
                    assertThat(source.ticket().partition()).isEqualTo(2 * t + p).isBetween(2 * t, 2 * t + 1);
                    assertThat(source.ticket().head()).isEqualTo(head);
                    assertThat(source.ticket().consumerTaskIndex()).isEqualTo(t);
                }
                covered.add(sources.get(0).ticket().partition());
            }
        }
        // every hash partition the producers write is read by exactly one consumer partition
        assertThat(covered).containsExactlyElementsOf(IntStream.range(0, 6).boxed().toList());
    }

    @Test
    void withoutAPcOverrideTheConsumerKeepsThePlannedPartitions() {
        BoundaryRequirements requirements = exact(ConsumerTasks.exact(2));
        DistributedPlan plan = sized(requirements, 2);
        ShuffleLayout layout = ShuffleLayout.of(plan.stage(0), 2, requirements);
        assertThat(plan.stage(1).partitionsPerTask()).isEqualTo(4);
        assertThat(layout.producerHead()).isEqualTo(new ProducerHead.Shuffle(fragments.get(0).outputKeys(), 4, 2));
        assertThat(inputOf(plan.stage(1).plan()).consumerTasks()).isEqualTo(2);
        assertThat(plan.stage(0).output().orElseThrow().partitionsPerConsumerTask()).isEqualTo(4);
    }

    @Test
    void aLayoutForAnotherCountThanTheExactOneIsRefused() {
        BoundaryRequirements requirements = exact(ConsumerTasks.exact(3, 2));
        Stage producer = ExactFixtures.sizeStatic(planner, fragments.get(0), List.of(), List.of());
        assertThatThrownBy(() -> ShuffleLayout.of(producer, 2, requirements))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.TASK_COUNT_CONFLICT))
                .hasMessageContaining("handler sizer").hasMessageContaining("exactly 3");
    }

    @Test
    void twoHandlersWithDifferentPcFailNamingBoth() {
        BoundaryRequirements first = exact(ConsumerTasks.exact(3, 2));
        assertThatThrownBy(() -> first.with("other", ConsumerTasks.exact(3, 4)))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.TASK_COUNT_CONFLICT))
                .hasMessageContaining("handler sizer").hasMessageContaining("handler other").hasMessageContaining("P_c");
    }

    @Test
    void aPcOverrideThatDisagreesWithTheOtherSideOfAPartitionedJoinIsRefusedAndOneThatAgreesIsApplied() {
        ExecutionPlan build = table(1_000, 2);
        ExecutionPlan probe = table(5_000, 2);
        List<PhysicalExpr> buildKeys = List.of(col(build, "k"));
        List<PhysicalExpr> probeKeys = List.of(col(probe, "k"));
        ExecutionPlan join = new HashJoinExec(new RepartitionExec(build, new Partitioning.Hash(buildKeys, 4)),
                new RepartitionExec(probe, new Partitioning.Hash(probeKeys, 4)), buildKeys, probeKeys, JoinType.INNER, Optional.empty(),
                PartitionMode.PARTITIONED);
        List<StageFragment> cut = planner.cut(join);
        StageFragment buildStage = cut.get(0);
        StageFragment probeStage = cut.get(1);
        assertThat(buildStage.outputKind()).contains(BoundaryKind.SHUFFLE);
        assertThat(probeStage.consumerStageId()).isEqualTo(buildStage.consumerStageId());
        StageBoundary buildBoundary = boundary(cut, 0, planner, GIB, PlanningMode.STATIC);
        StageBoundary probeBoundary = boundary(cut, 1, planner, GIB, PlanningMode.STATIC);
        BoundaryRequirements buildRequirements = BoundaryRequirements.none(buildBoundary).with("sizer", ConsumerTasks.exact(2, 3));
        Stage producer = ExactFixtures.sizeStatic(planner, buildStage, List.of(), List.of());
        ShuffleLayout layout = ShuffleLayout.of(producer, 2, buildRequirements);
        StageFragment consumer = cut.stream().filter(fragment -> fragment.stageId() == buildStage.consumerStageId()).findFirst().orElseThrow();

        // the probe side is not decided yet: nothing to disagree with
        ConsumerRequirements.checkShuffleInputs(consumer, Map.of(0, buildRequirements));
        // the probe side keeps the planned P_c=4
        assertThatThrownBy(() -> ConsumerRequirements.checkShuffleInputs(consumer, Map.of(0, buildRequirements, 1, BoundaryRequirements.none(probeBoundary))))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.TASK_COUNT_CONFLICT))
                .hasMessageContaining("P_c=3 (handler sizer (stage 0 → stage 2) with P_c=3)")
                .hasMessageContaining("P_c=4 (planned for stage 1 → stage 2)");
        // both sides with P_c=3: agreed, and the consumer reads both with it
        BoundaryRequirements probeRequirements = BoundaryRequirements.none(probeBoundary).with("sizer", ConsumerTasks.exact(2, 3));
        ConsumerRequirements.checkShuffleInputs(consumer, Map.of(0, buildRequirements, 1, probeRequirements));
        assertThat(layout.partitionsPerConsumerTask()).isEqualTo(3);
        StageFragment read = ShuffleLayout.withInputPartitions(consumer, Map.of(0, 3, 1, 3));
        assertThat(PlanTree.nodesOf(read.plan(), StageInputExec.class)).hasSize(2).allSatisfy(input -> assertThat(input.partitionsPerConsumerTask()).isEqualTo(3));
        assertThat(read.plan().outputPartitioning().partitionCount()).isEqualTo(3);
        // the event the loop fires for that producer carries its cost
        assertThat(StageBoundaries.builtEvent(buildBoundary, buildStage.plan(), producer.taskCount(), new CostModel()).producerCost().outputRows()).isPositive();
    }

    private static StageInputExec inputOf(ExecutionPlan plan) {
        if (plan instanceof StageInputExec input) {
            return input;
        }
        return plan.children().stream().map(ShuffleLayoutTest::inputOf).filter(Objects::nonNull).findFirst().orElse(null);
    }
}
