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
import dev.quiver.engine.execution.ExecutionConfig;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.memory.MemoryPool;
import dev.quiver.engine.operator.aggregate.AggregateMode;
import dev.quiver.engine.operator.aggregate.HashAggregateExec;
import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.engine.testing.TestingContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A PARTIAL aggregate over high-cardinality keys (TPC-H SF 0.05 lineitem by order and part: ~300,000
 * groups of ~300,000 rows, 2 partitions) is "blocking" by its type but streams at run time: after
 * 100,000 rows it emits what it holds and passes rows through, and under memory pressure it emits
 * what it holds and starts over. A sample cut short while its input still runs is extrapolated from
 * the driver rows and the rows it still holds, whatever cut it: the budget or the pool. The
 * expected output is counted by running the plan to its end.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BlockedSampleTest {
    private static final int PARTITIONS = 2;
    private static final int BATCH_ROWS = 8192;

    private TpchCatalog catalog;
    private long actualRows;

    @BeforeAll
    void generate() {
        catalog = TpchCatalog.cached(0.05, 256L << 20);
        try (TestingContext testing = new TestingContext(); TaskContext context = context(testing, BATCH_ROWS, new RecordingSink())) {
            actualRows = AqeFixtures.run(groupBy(), context).rows();
        }
        assertThat(actualRows).isGreaterThan(290_000);
    }

    @AfterAll
    void close() {
        catalog.close();
    }

    /** 64 KiB and 1 MiB stop while the aggregate emits its first 100,000 groups (~1.6 MiB); 2 MiB once it passes rows through. */
    @ParameterizedTest
    @ValueSource(longs = {64 << 10, 1 << 20, 2 << 20})
    void aPartialAggregateCutShortByTheBudgetIsExtrapolatedFromItsDriverRows(long budget) {
        List<PartitionSample> samples;
        try (TestingContext testing = new TestingContext()) {
            samples = sample(testing, budget);
        }
        assertThat(samples).hasSize(PARTITIONS).allSatisfy(sample -> {
            assertThat(sample.endOfStream()).isFalse();
            assertThat(sample.blocked()).isTrue();
            assertThat(sample.driverState()).isEqualTo(DriverState.RUNNING);
            assertThat(sample.pendingRows()).isNotNegative();
            double driverProgress = sample.driverRowsPulled() / (double) sample.driverRowsExpected();
            assertThat(sample.completion()).isCloseTo(driverProgress * sample.rows() / (sample.rows() + sample.pendingRows()), within(1e-9));
        });
        assertWithinOneAndAHalf(estimate(samples));
    }

    /**
     * A pool of 3 MiB: the aggregate flushes whenever the pool refuses it more groups, and the
     * sampler's reservation of what it buffered is refused long before the 16 MiB budget of a
     * blocked stage. The sample still knows its completion from the driver rows.
     */
    @Test
    void aPoolThatRefusesTheSamplerEarlyStillGivesTheDriverCompletion() {
        long budget = 16L << 20;
        List<PartitionSample> samples;
        try (TestingContext testing = new TestingContext(new MemoryPool(3L << 20), new ExecutionConfig(BATCH_ROWS, 2))) {
            samples = sample(testing, budget);
            assertThat(testing.pool().used()).isZero();
        }
        assertThat(samples).hasSize(PARTITIONS).allSatisfy(sample -> {
            assertThat(sample.endOfStream()).isFalse();
            assertThat(sample.bytes()).isLessThan(budget / 4);
            assertThat(sample.driverState()).isEqualTo(DriverState.RUNNING);
            assertThat(sample.completion()).isBetween(0.0, 0.9).isGreaterThan(0.0);
        });
        assertWithinOneAndAHalf(estimate(samples));
    }

    private void assertWithinOneAndAHalf(SampledStatistics estimate) {
        assertThat(estimate.lowerBound()).isFalse();
        assertThat(estimate.summary()).startsWith("estimated rows=~");
        assertThat((double) estimate.rows()).as("estimated vs actual %d output rows", actualRows).isBetween(actualRows / 1.5, actualRows * 1.5);
        assertThat(estimate.fractionSampled()).isLessThan(0.9);
    }

    /** Samples both partitions of one task, one after the other, as the workers would, then closes it. */
    private List<PartitionSample> sample(TestingContext testing, long budget) {
        ExecutionPlan plan = groupBy();
        SamplerExec sampler = new SamplerExec(plan, List.of(column(plan, "l_orderkey"), column(plan, "l_partkey")), budget);
        List<PartitionSample> samples = new ArrayList<>();
        try (TaskContext context = context(testing, BATCH_ROWS, new RecordingSink())) {
            for (int partition = 0; partition < PARTITIONS; partition++) {
                samples.add(sampler.sample(partition, context).orElseThrow());
            }
        }
        return samples;
    }

    private SampledStatistics estimate(List<PartitionSample> samples) {
        ExecutionPlan plan = groupBy();
        Stage stage = new Stage(0, List.of(plan), PARTITIONS, TaskCountHint.desired(1, "test"),
                Optional.of(new StageOutput(BoundaryKind.SHUFFLE, 1, List.of(column(plan, "l_orderkey"), column(plan, "l_partkey")), 2)), List.of());
        StageSampleCollector collector = StageSampleCollector.forStage(stage);
        samples.forEach(sample -> collector.offer(0, sample));
        return collector.estimate().orElseThrow();
    }

    /** A fresh plan each time: the driver rows are read from the plan nodes' metrics. */
    private ExecutionPlan groupBy() {
        ExecutionPlan lineitem = scan(catalog, "lineitem", PARTITIONS);
        return new HashAggregateExec(AggregateMode.PARTIAL, List.of(column(lineitem, "l_orderkey"), column(lineitem, "l_partkey")),
                List.of("l_orderkey", "l_partkey"), List.of(), lineitem);
    }
}
