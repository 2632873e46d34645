package dev.quiver.distributed.aqe;

import static dev.quiver.distributed.aqe.AqeFixtures.column;
import static dev.quiver.distributed.aqe.AqeFixtures.context;
import static dev.quiver.distributed.aqe.AqeFixtures.scan;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.quiver.distributed.aqe.AqeFixtures.RecordingSink;
import dev.quiver.distributed.operator.BoundaryKind;
import dev.quiver.distributed.operator.SamplerExec;
import dev.quiver.distributed.plan.Stage;
import dev.quiver.distributed.plan.StageOutput;
import dev.quiver.distributed.plan.TaskCountHint;
import dev.quiver.distributed.protocol.DriverState;
import dev.quiver.distributed.protocol.PartitionSample;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.expr.BinaryExpr;
import dev.quiver.engine.expr.BinaryOperator;
import dev.quiver.engine.expr.LiteralExpr;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.operator.FilterExec;
import dev.quiver.engine.operator.aggregate.AggregateMode;
import dev.quiver.engine.operator.aggregate.HashAggregateExec;
import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.engine.source.tpch.TpchScanExec;
import dev.quiver.engine.stats.Precision;
import dev.quiver.engine.testing.TestingContext;
import dev.quiver.engine.types.QuiverTypes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Extrapolation from real samples of TPC-H lineitem at SF 0.01 (60175 rows, 15000 order keys), 2 tasks × 5 partitions. */
class StageSampleCollectorTest {
    private static final int TASKS = 2;
    private static final int PARTITIONS = 5;
    private static final int BATCH_ROWS = 250;
    private static final long LINEITEM_ROWS = 60175;
    private static final long ORDER_KEYS = 15000;

    private final TestingContext testing = new TestingContext();
    private final TpchCatalog catalog = new TpchCatalog(0.01);

    @AfterEach
    void close() {
        testing.close();
    }

    @Test
    void aTwentyPercentSampleOfEveryPartitionEstimatesLineitem() {
        // a partition is ~6000 rows of ~200 B: a fifth of it is ~240 KiB
        Stage stage = stage(UnaryOperator.identity());
        List<Sampled> samples = sampleAll(stage, 240 * 1024);
        StageSampleCollector collector = StageSampleCollector.forStage(stage);
        samples.forEach(s -> collector.offer(s.task(), s.sample()));
        assertThat(collector.isEnough()).isTrue();

        SampledStatistics estimate = collector.estimate().orElseThrow();
        assertThat(estimate.fractionSampled()).isBetween(0.15, 0.3);
        assertThat((double) estimate.rows()).isCloseTo(LINEITEM_ROWS, within(LINEITEM_ROWS * 0.10));
        assertThat((double) estimate.distinctKeys()).isCloseTo(ORDER_KEYS, within(ORDER_KEYS * 0.25));
        assertThat(estimate.partitionsReported()).isEqualTo(10);
        assertThat(estimate.statistics().rowCount().precision()).isEqualTo(Precision.INEXACT);
        assertThat(estimate.statistics().rowCount().value()).isEqualTo(estimate.rows());
        assertThat(estimate.summary()).startsWith("estimated rows=~").contains("distinct keys=~", "from 10 of 10 partitions");
    }

    @Test
    void stopsAtTwentyPercentOfThePartitionsAndScalesThemToTheStage() {
        Stage stage = stage(UnaryOperator.identity());
        List<Sampled> samples = sampleAll(stage, 1L << 30);
        StageSampleCollector collector = StageSampleCollector.forStage(stage);
        assertThat(collector.estimate()).isEmpty();
        assertThat(collector.offer(samples.get(0).task(), samples.get(0).sample())).isFalse();
        assertThat(collector.offer(samples.get(7).task(), samples.get(7).sample())).isTrue();

        SampledStatistics estimate = collector.estimate().orElseThrow();
        assertThat(estimate.partitionsReported()).isEqualTo(2);
        assertThat(estimate.fractionSampled()).isBetween(0.15, 0.25);
        assertThat((double) estimate.rows()).isCloseTo(LINEITEM_ROWS, within(LINEITEM_ROWS * 0.10));
        assertThat((double) estimate.distinctKeys()).isCloseTo(ORDER_KEYS, within(ORDER_KEYS * 0.25));
        // a column that repeats a lot: its domain, not a scaled count
        int lineNumber = stage.plan().schema().getFields().indexOf(stage.plan().schema().findField("l_linenumber"));
        assertThat(estimate.statistics().columns().get(lineNumber).distinctCount().value()).isEqualTo(7);
    }

    @Test
    void everyPartitionEndedMeansTheExactCounts() {
        Stage stage = stage(UnaryOperator.identity());
        StageSampleCollector collector = StageSampleCollector.forStage(stage);
        sampleAll(stage, 1L << 30).forEach(s -> collector.offer(s.task(), s.sample()));
        SampledStatistics estimate = collector.estimate().orElseThrow();
        assertThat(estimate.rows()).isEqualTo(LINEITEM_ROWS);
        assertThat(estimate.fractionSampled()).isEqualTo(1.0);
        assertThat((double) estimate.distinctKeys()).isCloseTo(ORDER_KEYS, within(ORDER_KEYS * 0.03));
    }

    @Test
    void aFilteredStageIsExtrapolatedFromTheRowsItsDriverLeavesPulled() {
        UnaryOperator<ExecutionPlan> firstTwoLines = scan -> new FilterExec(new BinaryExpr(BinaryOperator.LT_EQ, column(scan, "l_linenumber"),
                new LiteralExpr(2, QuiverTypes.INT32), QuiverTypes.BOOLEAN), scan);
        long actual;
        try (TaskContext context = context(testing, BATCH_ROWS, new RecordingSink())) {
            actual = AqeFixtures.run(firstTwoLines.apply(scan(catalog, "lineitem", 2)), context).rows();
        }
        Stage stage = stage(firstTwoLines);
        StageSampleCollector collector = StageSampleCollector.forStage(stage);
        sampleAll(stage, 64 * 1024).forEach(s -> collector.offer(s.task(), s.sample()));
        SampledStatistics estimate = collector.estimate().orElseThrow();
        assertThat(estimate.fractionSampled()).isLessThan(0.5);
        assertThat((double) estimate.rows()).isCloseTo(actual, within(actual * 0.10));
    }

    /**
     * Aggregates that consume all their input before they output (1,500 order keys in 6,000 rows
     * per partition: no pass-through): cut short after one batch, the driver leaves have ended and
     * their rows say nothing, but the aggregate reports the groups it still holds, so the sample
     * knows its share of the output: one row per order key, exactly.
     */
    @ParameterizedTest
    @EnumSource(value = AggregateMode.class, names = {"PARTIAL", "SINGLE"})
    void aBlockingOperatorCutShortCountsTheRowsItStillHolds(AggregateMode mode) {
        Stage stage = stage(scan -> new HashAggregateExec(mode, List.of(column(scan, "l_orderkey")), List.of("l_orderkey"), List.of(), scan));
        StageSampleCollector collector = StageSampleCollector.forStage(stage);
        List<Sampled> samples = sampleAll(stage, 1);
        samples.forEach(s -> collector.offer(s.task(), s.sample()));
        assertThat(samples).allSatisfy(s -> {
            assertThat(s.sample().blocked()).isTrue();
            assertThat(s.sample().endOfStream()).isFalse();
            assertThat(s.sample().driverState()).isEqualTo(DriverState.ENDED);
            assertThat(s.sample().rows()).isEqualTo(BATCH_ROWS);
            assertThat(s.sample().completion()).isEqualTo(s.sample().rows() / (double) (s.sample().rows() + s.sample().pendingRows()));
        });
        SampledStatistics estimate = collector.estimate().orElseThrow();
        assertThat(estimate.lowerBound()).isFalse();
        assertThat(estimate.rows()).isEqualTo(ORDER_KEYS);
        assertThat(estimate.fractionSampled()).isLessThan(0.2);
    }

    /**
     * A filter above the aggregate (as a HAVING) hides how many of its held rows will be output:
     * cut short after its input ended, the sample's completion is unknown and the estimate is a
     * lower bound; sampled to the end, the same stage is counted exactly.
     */
    @Test
    void aBlockingOperatorWhoseRestIsUnknownMakesACutSampleALowerBound() {
        UnaryOperator<ExecutionPlan> having = scan -> {
            ExecutionPlan groups = new HashAggregateExec(AggregateMode.SINGLE, List.of(column(scan, "l_orderkey")), List.of("l_orderkey"),
                    List.of(), scan);
            return new FilterExec(new BinaryExpr(BinaryOperator.GT, column(groups, "l_orderkey"), new LiteralExpr(0L, QuiverTypes.INT64),
                    QuiverTypes.BOOLEAN), groups);
        };
        Stage stage = stage(having);
        StageSampleCollector partial = StageSampleCollector.forStage(stage);
        List<Sampled> samples = sampleAll(stage, 1);
        samples.forEach(s -> partial.offer(s.task(), s.sample()));
        assertThat(samples).allSatisfy(s -> {
            assertThat(s.sample().blocked()).isTrue();
            assertThat(s.sample().driverState()).isEqualTo(DriverState.ENDED);
            assertThat(s.sample().pendingRows()).isEqualTo(-1);
            assertThat(s.sample().completion()).isEqualTo(-1.0);
        });
        SampledStatistics lowerBound = partial.estimate().orElseThrow();
        assertThat(lowerBound.lowerBound()).isTrue();
        assertThat(lowerBound.rows()).isEqualTo(lowerBound.sampledRows()).isLessThan(ORDER_KEYS);
        assertThat(lowerBound.summary()).startsWith("estimated rows=≥");

        StageSampleCollector whole = StageSampleCollector.forStage(stage);
        sampleAll(stage, 1L << 30).forEach(s -> whole.offer(s.task(), s.sample()));
        SampledStatistics exact = whole.estimate().orElseThrow();
        assertThat(exact.lowerBound()).isFalse();
        assertThat(exact.rows()).isEqualTo(ORDER_KEYS);
    }

    @Test
    void tellsClusteredKeysFromKeysDrawnAtRandom() {
        // 4000 sampled rows of 4 rows per key in key order: 1000 keys, 500 in the first half; the stage has 40000 rows
        assertThat(StageSampleCollector.extrapolateKeys(1000, 4000, 500, 2000, 40_000)).isEqualTo(10_000);
        // 4000 rows drawn at random from 1000 keys see ~982 of them, ~865 in the first half: the domain
        assertThat(StageSampleCollector.extrapolateKeys(982, 4000, 865, 2000, 40_000)).isCloseTo(1000L, within(30L));
        // every row its own key: scale with the rows, never above them
        assertThat(StageSampleCollector.extrapolateKeys(4000, 4000, 2000, 2000, 40_000)).isEqualTo(40_000);
        assertThat(StageSampleCollector.extrapolateKeys(10, 40_000, 10, 20_000, 40_000)).isEqualTo(10);
    }

    /**
     * A 2% sample of unique keys (a high-cardinality GROUP BY's partial rows) whose sketch reads 2%
     * low: the domain that undercount implies (~576,000) is noise; the keys scale with the rows.
     */
    @Test
    void keysWithinTheSketchErrorOfTheRowsScaleWithTheRows() {
        assertThat(StageSampleCollector.extrapolateKeys(23_500, 24_000, 11_880, 12_000, 1_200_000)).isEqualTo(1_175_000);
        // a sample that does repeat its keys beyond the sketch's error still finds the domain
        assertThat(StageSampleCollector.extrapolateKeys(20_000, 24_000, 11_300, 12_000, 1_200_000)).isLessThan(100_000);
    }

    /**
     * Every partition of a partial aggregate holds the same few groups (TPC-H q1's keys): stopping
     * at 20% of the partitions, the keys are those groups, not scaled with the unsampled partitions.
     */
    @Test
    void keysEveryPartitionRepeatsAreNotScaledWithThePartitions() {
        UnaryOperator<ExecutionPlan> groupByFlags = scan -> new HashAggregateExec(AggregateMode.PARTIAL,
                List.of(column(scan, "l_returnflag"), column(scan, "l_linestatus")), List.of("l_returnflag", "l_linestatus"), List.of(), scan);
        Stage stage = stage(groupByFlags);
        StageSampleCollector collector = StageSampleCollector.forStage(stage);
        for (Sampled sampled : sampleAll(stage, 1L << 30, List.of("l_returnflag", "l_linestatus"))) {
            if (collector.offer(sampled.task(), sampled.sample())) {
                break;
            }
        }
        SampledStatistics estimate = collector.estimate().orElseThrow();
        assertThat(estimate.partitionsReported()).isEqualTo(2).isLessThan(TASKS * PARTITIONS);
        assertThat(estimate.rows()).isEqualTo(4L * TASKS * PARTITIONS);
        assertThat(estimate.distinctKeys()).isEqualTo(4);
    }

    private record Sampled(int task, PartitionSample sample) {}

    private Stage stage(UnaryOperator<ExecutionPlan> above) {
        TpchScanExec lineitem = (TpchScanExec) scan(catalog, "lineitem", PARTITIONS);
        List<ExecutionPlan> tasks = new ArrayList<>();
        for (int task = 0; task < TASKS; task++) {
            tasks.add(above.apply(lineitem.withParts(task * PARTITIONS, PARTITIONS, TASKS * PARTITIONS)));
        }
        return new Stage(0, tasks, PARTITIONS, TaskCountHint.desired(TASKS, "test"),
                Optional.of(new StageOutput(BoundaryKind.SHUFFLE, 1, List.of(column(lineitem, "l_orderkey")), 2)), List.of());
    }

    /** Samples every partition of every task, as the workers would, and drops the rest. */
    private List<Sampled> sampleAll(Stage stage, long budget) {
        return sampleAll(stage, budget, List.of("l_orderkey"));
    }

    private List<Sampled> sampleAll(Stage stage, long budget, List<String> keys) {
        List<Sampled> samples = new ArrayList<>();
        for (int task = 0; task < stage.taskCount(); task++) {
            ExecutionPlan plan = stage.taskPlans().get(task);
            SamplerExec sampler = new SamplerExec(plan, keys.stream().<PhysicalExpr>map(key -> column(plan, key)).toList(), budget);
            try (TaskContext context = context(testing, BATCH_ROWS, new RecordingSink())) {
                for (int partition = 0; partition < PARTITIONS; partition++) {
                    samples.add(new Sampled(task, sampler.sample(partition, context).orElseThrow()));
                }
            }
        }
        return samples;
    }
}
