package dev.quiver.distributed.handler;

import static dev.quiver.distributed.planner.ExactFixtures.boundary;
import static dev.quiver.distributed.planner.ExactFixtures.col;
import static dev.quiver.distributed.planner.ExactFixtures.groupBy;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.distributed.aqe.CostModel;
import dev.quiver.distributed.aqe.SampledStatistics;
import dev.quiver.distributed.event.ConsumerTasks;
import dev.quiver.distributed.event.DynamicStageBuiltEvent;
import dev.quiver.distributed.event.DynamicStageBuiltEventResponse;
import dev.quiver.distributed.event.PlanningMode;
import dev.quiver.distributed.event.StageBoundary;
import dev.quiver.distributed.event.StageSampledEvent;
import dev.quiver.distributed.event.StageSampledEventResponse;
import dev.quiver.distributed.operator.BoundaryKind;
import dev.quiver.distributed.plan.DistributedPlannerSettings;
import dev.quiver.distributed.plan.StageFragment;
import dev.quiver.distributed.planner.DistributedPlanner;
import dev.quiver.distributed.planner.ExactFixtures;
import dev.quiver.distributed.planner.StageBoundaries;
import dev.quiver.distributed.planner.StageEventDispatcher;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.ExecutionConfig;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.execution.PlanExecutor;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.memory.MemoryPool;
import dev.quiver.engine.metrics.PartitionMetrics;
import dev.quiver.engine.operator.aggregate.AggregateExpr;
import dev.quiver.engine.operator.aggregate.AggregateFunction;
import dev.quiver.engine.operator.aggregate.HashAggregateExec;
import dev.quiver.engine.operator.exchange.RepartitionExec;
import dev.quiver.engine.operator.join.HashJoinExec;
import dev.quiver.engine.operator.join.JoinType;
import dev.quiver.engine.operator.join.PartitionMode;
import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.engine.spi.ScanRequest;
import dev.quiver.engine.stats.Statistics;
import dev.quiver.engine.testing.TestingContext;
import dev.quiver.engine.types.QuiverTypes;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;

/**
 * The reference handler against the engine's real FINAL aggregate: {@code SELECT l_orderkey, l_partkey, count(*), sum(l_quantity),
 * max(l_suppkey) FROM lineitem GROUP BY 1, 2} (about one group per row).
 */
class AggregateMemorySizingHandlerTest {
    private static final int PARTITIONS = 4;
    private static final int WORKERS = 4;
    private static final long MIB = 1L << 20;

    private record Query(ExecutionPlan plan, HashAggregateExec finalAggregate) {}

    private static Query query(TpchCatalog catalog) {
        ExecutionPlan scan = catalog.table("lineitem").orElseThrow().scan(ScanRequest.all(PARTITIONS));
        List<AggregateExpr> aggregates = List.of(new AggregateExpr(AggregateFunction.COUNT, List.of(), false, "cnt", QuiverTypes.INT64),
                new AggregateExpr(AggregateFunction.SUM, List.of(col(scan, "l_quantity")), false, "sum_qty", QuiverTypes.decimal(38, 2)),
                new AggregateExpr(AggregateFunction.MAX, List.of(col(scan, "l_suppkey")), false, "max_supp", QuiverTypes.INT64));
        HashAggregateExec aggregate = groupBy(scan, List.of("l_orderkey", "l_partkey"), aggregates, PARTITIONS);
        return new Query(aggregate, aggregate);
    }

    private static DistributedPlanner planner(int workers) {
        return new DistributedPlanner(DistributedPlannerSettings.defaults(workers, PARTITIONS));
    }

    private static DynamicStageBuiltEvent builtEvent(List<StageFragment> fragments, StageBoundary boundary) {
        return StageBoundaries.builtEvent(boundary, fragments.get(0).plan(), WORKERS, new CostModel());
    }

    @Test
    void perTaskEstimateIsWithinTwiceTheMeasuredPeakOfTheFinalAggregate() {
        for (double sf : new double[] {0.01, 0.1}) {
            try (TpchCatalog catalog = new TpchCatalog(sf);
                    TestingContext testing = new TestingContext(MemoryPool.unlimited(), new ExecutionConfig(ExecutionConfig.DEFAULT_BATCH_SIZE, PARTITIONS))) {
                Query query = query(catalog);
                long groups = 0;
                for (VectorSchemaRoot batch : PlanExecutor.collect(query.plan(), testing.context())) {
                    try (batch) {
                        groups += batch.getRowCount();
                    }
                }
                // the partitions of a task run at once, so the task's peak is the sum of theirs
                long measured = query.finalAggregate().metrics().partitions().values().stream().mapToLong(PartitionMetrics::peakMemoryBytes).sum();

                // one task of P partitions, as the single-node run was: the handler's estimate from the catalog's key counts
                DistributedPlanner planner = planner(1);
                List<StageFragment> fragments = planner.cut(query.plan());
                StageBoundary boundary = boundary(fragments, 0, planner, 1L << 40, PlanningMode.STATIC);
                // without the margin on the groups: the formula itself against the engine
                AggregateMemorySizingHandler handler = new AggregateMemorySizingHandler(1.0);
                DynamicStageBuiltEvent event = builtEvent(fragments, boundary);
                AggregateSizing fromCatalog = handler.size(boundary, AggregateMemorySizingHandler.finalAggregate(boundary).orElseThrow(),
                        catalogGroups(event), "catalog", 1, PARTITIONS, 64, false);
                AggregateSizing fromTrueGroups = handler.size(boundary, AggregateMemorySizingHandler.finalAggregate(boundary).orElseThrow(), groups,
                        "true", 1, PARTITIONS, 64, false);
                System.out.printf("SF %s: %d groups (catalog %d), measured peak %d B, estimated %d B (catalog) / %d B (true G), %d B/group%n", sf,
                        groups, fromCatalog.groups(), measured, fromCatalog.taskBytes(), fromTrueGroups.taskBytes(), fromTrueGroups.bytesPerGroup());
                assertThat(fromCatalog.consumerTasks()).isEqualTo(1);
                assertThat(measured).isPositive();
                assertThat((double) fromTrueGroups.taskBytes()).isBetween(measured / 2.0, measured * 2.0);
                assertThat((double) fromCatalog.taskBytes()).isBetween(measured / 2.0, measured * 2.0);
            }
        }
    }

    private static long catalogGroups(DynamicStageBuiltEvent event) {
        long rows = Math.max(1, event.producerCost().outputRows());
        return GroupCardinality.distinctTuples(event.producerPlan(), event.boundary().keys(), rows).orElseThrow();
    }

    @Test
    void twoMemoryLimitsGiveTwoDifferentExactCounts() {
        try (TpchCatalog catalog = new TpchCatalog(0.1)) {
            DistributedPlanner planner = planner(WORKERS);
            List<StageFragment> fragments = planner.cut(query(catalog).plan());
            AggregateMemorySizingHandler handler = new AggregateMemorySizingHandler();

            StageBoundary roomy = boundary(fragments, 0, planner, 1L << 30, PlanningMode.STATIC);
            StageBoundary tight = boundary(fragments, 0, planner, 48 * MIB, PlanningMode.STATIC);
            DynamicStageBuiltEventResponse roomyAnswer = handler.onStageBuilt(builtEvent(fragments, roomy));
            DynamicStageBuiltEventResponse tightAnswer = handler.onStageBuilt(builtEvent(fragments, tight));
            int roomyTasks = roomyAnswer.consumerTasks().orElseThrow().tasks();
            int tightTasks = tightAnswer.consumerTasks().orElseThrow().tasks();
            assertThat(roomyAnswer.consumerTasks().orElseThrow().exact()).isTrue();
            assertThat(tightAnswer.consumerTasks().orElseThrow().exact()).isTrue();
            assertThat(roomyTasks).isEqualTo(1);
            assertThat(tightTasks).isGreaterThan(roomyTasks).isLessThanOrEqualTo(WORKERS);

            // the smallest n that fits: n fits the tight limit, n - 1 does not
            HashAggregateExec aggregate = AggregateMemorySizingHandler.finalAggregate(tight).orElseThrow();
            long groups = catalogGroups(builtEvent(fragments, tight));
            AggregateSizing chosen = handler.size(tight, aggregate, groups, "catalog", WORKERS, PARTITIONS, 64, true);
            assertThat(chosen.consumerTasks()).isEqualTo(tightTasks);
            assertThat(chosen.workerBytes()).isLessThanOrEqualTo(48 * MIB);
            long sizedGroups = (long) Math.ceil(AggregateMemorySizingHandler.DEFAULT_SAFETY_FACTOR * groups);
            for (int partitions : AggregateMemorySizingHandler.partitionChoices(PARTITIONS, true)) {
                long previousTask = AggregateMemorySizingHandler.taskBytes(sizedGroups, tightTasks - 1, partitions, chosen.bytesPerGroup());
                assertThat(previousTask + chosen.coResidentBytes()).as("n=%d with P_c=%d", tightTasks - 1, partitions).isGreaterThan(48 * MIB);
            }
        }
    }

    @Test
    void afterSamplingTheKeySketchSetsGroupsAndSmallerLimitsNeedMoreTasks() {
        try (TpchCatalog catalog = new TpchCatalog(0.01)) {
            DistributedPlanner planner = new DistributedPlanner(DistributedPlannerSettings.defaults(8, PARTITIONS));
            List<StageFragment> fragments = planner.cut(query(catalog).plan());
            AggregateMemorySizingHandler handler = new AggregateMemorySizingHandler();
            int previous = 0;
            for (long limit : new long[] {1L << 30, 128 * MIB, 48 * MIB}) {
                StageBoundary boundary = boundary(fragments, 0, planner, limit, PlanningMode.ADAPTIVE);
                SampledStatistics sample = new SampledStatistics(0, 2_000_000, 160_000_000, 2_000_000, 100_000, 0.05, 8, 8, 32, false,
                        Statistics.unknown(fragments.get(0).plan().schema()));
                StageSampledEventResponse answer = handler.onStageSampled(new StageSampledEvent(boundary, fragments.get(0).plan(), 8, sample));
                int tasks = answer.consumerTasks().orElseThrow().tasks();
                assertThat(answer.consumerTasks().orElseThrow().exact()).isTrue();
                assertThat(tasks).isGreaterThan(previous);
                previous = tasks;
            }
        }
    }

    /**
     * 600,000 groups (sized for 750,000) on 4 workers of 36 MiB, 4 partitions per task planned:
     * 2 tasks × 4 partitions need tables of 131,072 slots (4 × 76 B × 131,072 = 39.8 MB per task),
     * 3 tasks fit (19.9 MB); with 3 partitions per task 2 tasks fill tables of 131,072 slots
     * (29.9 MB, plus 2.1 MB of producer batches), so the handler requires (2, P_c = 3), and keeps
     * the planned P_c with 3 tasks when it may not choose (a consumer with other inputs).
     */
    @Test
    void choosesAnotherPartitionCountWhenThePlannedOneLeavesTheTablesHalfEmpty() {
        try (TpchCatalog catalog = new TpchCatalog(0.1)) {
            DistributedPlanner planner = planner(WORKERS);
            List<StageFragment> fragments = planner.cut(query(catalog).plan());
            StageBoundary boundary = boundary(fragments, 0, planner, 36 * MIB, PlanningMode.STATIC);
            AggregateMemorySizingHandler handler = new AggregateMemorySizingHandler();
            HashAggregateExec aggregate = AggregateMemorySizingHandler.finalAggregate(boundary).orElseThrow();
            AggregateSizing planned = handler.size(boundary, aggregate, 600_000, "test", WORKERS, PARTITIONS, 64, false);
            AggregateSizing chosen = handler.size(boundary, aggregate, 600_000, "test", WORKERS, PARTITIONS, 64, true);
            assertThat(List.of(planned.consumerTasks(), planned.partitionsPerConsumerTask())).containsExactly(3, PARTITIONS);
            assertThat(List.of(chosen.consumerTasks(), chosen.partitionsPerConsumerTask())).containsExactly(2, 3);
            assertThat(chosen.taskBytes()).isEqualTo(3L * 76 * 131_072);
            assertThat(chosen.workerBytes()).isLessThanOrEqualTo(36 * MIB);

            // from the event (the catalog's 600,572 groups; the boundary is the consumer's only input) the response carries P_c with n
            ConsumerTasks required = handler.onStageBuilt(builtEvent(fragments, boundary)).consumerTasks().orElseThrow();
            assertThat(required.exact()).isTrue();
            assertThat(required.tasks()).isEqualTo(2);
            assertThat(required.partitionsPerConsumerTask()).hasValue(3);
        }
    }

    @Test
    void triesThePlannedPartitionCountFirstThenTheNearestWithinHalfToTwiceIt() {
        assertThat(AggregateMemorySizingHandler.partitionChoices(8, false)).containsExactly(8);
        assertThat(AggregateMemorySizingHandler.partitionChoices(8, true)).containsExactly(8, 7, 9, 6, 10, 5, 11, 4, 12, 13, 14, 15, 16);
        assertThat(AggregateMemorySizingHandler.partitionChoices(1, true)).containsExactly(1, 2);
    }

    @Test
    void failsClearlyWhenEvenGOverWGroupsCannotFitAWorker() {
        try (TpchCatalog catalog = new TpchCatalog(0.1)) {
            DistributedPlanner planner = planner(WORKERS);
            List<StageFragment> fragments = planner.cut(query(catalog).plan());
            StageBoundary boundary = boundary(fragments, 0, planner, 4 * MIB, PlanningMode.STATIC);
            AggregateMemorySizingHandler handler = new AggregateMemorySizingHandler();
            assertThatThrownBy(() -> handler.onStageBuilt(builtEvent(fragments, boundary)))
                    .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.EXCEEDED_MEMORY_LIMIT))
                    .hasMessageContaining("G=").hasMessageContaining("bytes per group").hasMessageContaining("W=4").hasMessageContaining("G/W=")
                    .hasMessageContaining("limit of " + 4 * MIB + " bytes");

            // through the dispatcher, the query fails naming the handler, with the resources code kept
            StageEventDispatcher dispatcher = new StageEventDispatcher(List.of(handler));
            assertThatThrownBy(() -> dispatcher.onStageBuilt(builtEvent(fragments, boundary)))
                    .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.EXCEEDED_MEMORY_LIMIT))
                    .hasMessageContaining("handler AggregateMemorySizingHandler");
        }
    }

    @Test
    void leavesBoundariesWithoutAGroupedFinalAggregateAlone() {
        try (TpchCatalog catalog = new TpchCatalog(0.01)) {
            DistributedPlanner planner = planner(WORKERS);
            // the head's coalesce boundary fires no event; a shuffle into a join has no aggregate to size
            ExecutionPlan scan = catalog.table("lineitem").orElseThrow().scan(ScanRequest.all(PARTITIONS));
            List<StageFragment> fragments = planner.cut(groupBy(scan, List.of("l_orderkey"), List.of(), PARTITIONS));
            assertThat(ExactFixtures.boundaryOf("q1", fragments.get(1), fragments, planner, List.of(MIB, MIB, MIB, MIB), PlanningMode.STATIC))
                    .isEqualTo(Optional.empty());
            StageBoundary boundary = boundary(fragments, 0, planner, 1L << 30, PlanningMode.STATIC);
            assertThat(AggregateMemorySizingHandler.finalAggregate(boundary)).isPresent();

            ExecutionPlan orders = catalog.table("orders").orElseThrow().scan(ScanRequest.all(PARTITIONS));
            List<PhysicalExpr> orderKeys = List.of(col(orders, "o_orderkey"));
            List<PhysicalExpr> lineitemKeys = List.of(col(scan, "l_orderkey"));
            ExecutionPlan join = new HashJoinExec(new RepartitionExec(orders, new Partitioning.Hash(orderKeys, PARTITIONS)),
                    new RepartitionExec(scan, new Partitioning.Hash(lineitemKeys, PARTITIONS)), orderKeys, lineitemKeys, JoinType.INNER, Optional.empty(),
                    PartitionMode.PARTITIONED);
            List<StageFragment> joined = planner.cut(join);
            StageBoundary intoJoin = boundary(joined, 0, planner, 1L << 30, PlanningMode.STATIC);
            assertThat(intoJoin.kind()).isEqualTo(BoundaryKind.SHUFFLE);
            assertThat(AggregateMemorySizingHandler.finalAggregate(intoJoin)).isEmpty();
            assertThat(new AggregateMemorySizingHandler().onStageBuilt(builtEvent(joined, intoJoin))).isEqualTo(DynamicStageBuiltEventResponse.unchanged());
        }
    }
}
