package dev.quiver.distributed.operator;

import static dev.quiver.distributed.aqe.AqeFixtures.column;
import static dev.quiver.distributed.aqe.AqeFixtures.context;
import static dev.quiver.distributed.aqe.AqeFixtures.run;
import static dev.quiver.distributed.aqe.AqeFixtures.scan;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.quiver.distributed.aqe.AqeFixtures.Output;
import dev.quiver.distributed.aqe.AqeFixtures.RecordingSink;
import dev.quiver.distributed.protocol.ColumnSample;
import dev.quiver.distributed.protocol.DriverState;
import dev.quiver.distributed.protocol.PartitionSample;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.expr.BinaryExpr;
import dev.quiver.engine.expr.BinaryOperator;
import dev.quiver.engine.expr.LiteralExpr;
import dev.quiver.engine.operator.FilterExec;
import dev.quiver.engine.operator.UnionExec;
import dev.quiver.engine.operator.aggregate.AggregateMode;
import dev.quiver.engine.operator.aggregate.HashAggregateExec;
import dev.quiver.engine.operator.join.HashJoinExec;
import dev.quiver.engine.operator.join.JoinType;
import dev.quiver.engine.operator.join.PartitionMode;
import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.engine.testing.TestingContext;
import dev.quiver.engine.types.QuiverTypes;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SamplerExecTest {
    private static final int BATCH_ROWS = 1000;
    private static final int PARTITIONS = 4;

    private final TestingContext testing = new TestingContext();
    private final TpchCatalog catalog = new TpchCatalog(0.01);

    @AfterEach
    void close() {
        testing.close();
    }

    /** 1 B: less than one batch; 300 KiB: between batches (each ~130 KiB); 1 GiB: more than the whole stream. */
    @ParameterizedTest
    @ValueSource(longs = {1, 300 * 1024, 1L << 30})
    void replaysEveryRowExactlyOnce(long budget) {
        Output expected = runWith(scan(catalog, "lineitem", PARTITIONS), new RecordingSink());

        // a fresh scan: metrics belong to the plan node, and the driver rows are read from them
        ExecutionPlan lineitem = scan(catalog, "lineitem", PARTITIONS);
        RecordingSink sink = new RecordingSink();
        SamplerExec sampler = new SamplerExec(lineitem, List.of(column(lineitem, "l_orderkey")), budget);
        Output sampled = runWith(sampler, sink);

        assertThat(sampled).isEqualTo(expected);
        assertThat(expected.rows()).isEqualTo(60175);
        assertThat(sink.samples).hasSize(PARTITIONS);
        for (PartitionSample sample : sink.samples) {
            if (budget == 1) {
                assertThat(sample.batches()).isEqualTo(1);
                assertThat(sample.rows()).isEqualTo(BATCH_ROWS);
                assertThat(sample.endOfStream()).isFalse();
            } else if (budget == 300 * 1024) {
                assertThat(sample.bytes()).isGreaterThanOrEqualTo(budget);
                assertThat(sample.batches()).isBetween(2, 4);
                assertThat(sample.endOfStream()).isFalse();
            } else {
                assertThat(sample.endOfStream()).isTrue();
                assertThat(sample.rows()).isBetween(14000L, 16000L);
            }
            // the scan is the driver leaf and nothing sits between: it pulled exactly what the sampler holds
            assertThat(sample.driverRowsPulled()).isEqualTo(sample.rows());
            assertThat(sample.driverRowsExpected()).isBetween(14000L, 16000L);
        }
        assertThat(testing.pool().used()).isZero();
    }

    @Test
    void sampleFirstThenReplayToTheConsumerReservingWhatIsBuffered() {
        ExecutionPlan orders = scan(catalog, "orders", 2);
        RecordingSink sink = new RecordingSink();
        SamplerExec sampler = new SamplerExec(orders, List.of(column(orders, "o_custkey")), 64 * 1024);
        try (TaskContext context = context(testing, BATCH_ROWS, sink)) {
            PartitionSample sample = sampler.sample(0, context).orElseThrow();
            assertThat(sink.samples).containsExactly(sample);
            assertThat(testing.pool().used()).isEqualTo(sample.bytes());
            assertThat(sampler.sample(0, context)).contains(sample);

            long rows = 0;
            try (BatchStream stream = sampler.execute(0, context)) {
                VectorSchemaRoot batch;
                while ((batch = stream.next()) != null) {
                    rows += batch.getRowCount();
                    batch.close();
                    assertThat(testing.pool().used()).isLessThan(Math.max(1, sample.bytes()));
                }
            }
            assertThat(rows).isEqualTo(7500);
            assertThat(sampler.metrics().peakMemoryBytes()).isEqualTo(sample.bytes());
            assertThat(sampler.metrics().outputRows()).isEqualTo(7500);
            assertThat(sink.samples).hasSize(1);
            assertThatThrownBy(() -> sampler.execute(0, context)).isInstanceOf(QuiverException.class).hasMessageContaining("executed twice");
        }
    }

    @Test
    void aPartitionSampledButNeverReadIsReleasedWithTheContext() {
        ExecutionPlan orders = scan(catalog, "orders", 2);
        SamplerExec sampler = new SamplerExec(orders, List.of(), 1L << 20);
        TaskContext context = context(testing, BATCH_ROWS, new RecordingSink());
        sampler.sample(1, context);
        assertThat(testing.pool().used()).isPositive();
        context.close();
        assertThat(testing.pool().used()).isZero();
    }

    @Test
    void cancellingWhileReplayingLeaksNothing() {
        ExecutionPlan lineitem = scan(catalog, "lineitem", 1);
        SamplerExec sampler = new SamplerExec(lineitem, List.of(column(lineitem, "l_orderkey")), 1L << 20);
        try (TaskContext context = context(testing, BATCH_ROWS, new RecordingSink())) {
            BatchStream stream = sampler.execute(0, context);
            stream.next().close();
            context.cancel("test");
            assertThatThrownBy(stream::next).isInstanceOf(QuiverException.class).hasMessageContaining("cancelled");
            stream.close();
            assertThat(testing.pool().used()).isZero();
        }
    }

    @Test
    void driverLeavesAreTheProbeSideOfJoinsAndMeasureAFilteredStage() {
        ExecutionPlan orders = scan(catalog, "orders", 1);
        ExecutionPlan lineitem = scan(catalog, "lineitem", 2);
        ExecutionPlan join = new HashJoinExec(orders, lineitem, List.of(column(orders, "o_orderkey")), List.of(column(lineitem, "l_orderkey")),
                JoinType.INNER, Optional.empty(), PartitionMode.COLLECT_LEFT);
        assertThat(DriverLeaves.of(join).describe()).singleElement().asString().contains("lineitem");

        // a filter keeping about 2/7 of the lines: the sample holds fewer rows than the driver pulled
        ExecutionPlan filtered = new FilterExec(new BinaryExpr(BinaryOperator.LT_EQ, column(lineitem, "l_linenumber"),
                new LiteralExpr(2, QuiverTypes.INT32), QuiverTypes.BOOLEAN), lineitem);
        RecordingSink sink = new RecordingSink();
        runWith(new SamplerExec(filtered, List.of(column(lineitem, "l_orderkey")), 100 * 1024), sink);
        for (PartitionSample sample : sink.samples) {
            assertThat(sample.driverRowsPulled()).isGreaterThan(2 * sample.rows());
            assertThat(sample.completion()).isBetween(0.0, 1.0);
        }
    }

    /**
     * A union under the aggregate: each partition reads one child's partition, but the leaves are
     * not aligned with the plan's partitions, so whether the aggregate's input ended cannot be told
     * and a cut sample's completion stays unknown, though the aggregate reports what it holds.
     */
    @Test
    void aBlockedPartitionWhoseLeavesAreNotAlignedDoesNotKnowItsCompletion() {
        ExecutionPlan union = new UnionExec(List.of(scan(catalog, "orders", 1), scan(catalog, "orders", 1)));
        ExecutionPlan groups = new HashAggregateExec(AggregateMode.PARTIAL, List.of(column(union, "o_orderkey")), List.of("o_orderkey"), List.of(),
                union);
        SamplerExec sampler = new SamplerExec(groups, List.of(column(groups, "o_orderkey")), 1);
        try (TaskContext context = context(testing, BATCH_ROWS, new RecordingSink())) {
            PartitionSample sample = sampler.sample(0, context).orElseThrow();
            assertThat(sample.blocked()).isTrue();
            assertThat(sample.endOfStream()).isFalse();
            assertThat(sample.driverState()).isEqualTo(DriverState.UNKNOWN);
            assertThat(sample.pendingRows()).isPositive();
            assertThat(sample.completion()).isEqualTo(-1.0);
        }
    }

    @Test
    void theSampleDescribesColumnsAndTravelsAsJson() throws Exception {
        ExecutionPlan nation = scan(catalog, "nation", 1);
        RecordingSink sink = new RecordingSink();
        runWith(new SamplerExec(nation, List.of(column(nation, "n_regionkey")), 1L << 20), sink);
        PartitionSample sample = sink.samples.get(0);
        assertThat(sample.rows()).isEqualTo(25);
        assertThat(sample.endOfStream()).isTrue();
        assertThat(sample.keyDistinct()).isEqualTo(5);
        ColumnSample name = sample.columns().get(1);
        assertThat(name.name()).isEqualTo("n_name");
        assertThat(name.distinctFraction()).isCloseTo(1.0, org.assertj.core.data.Offset.offset(0.05));
        assertThat(name.nullFraction()).isZero();

        ObjectMapper json = new ObjectMapper();
        String text = json.writeValueAsString(sample);
        assertThat(text).contains("\"keySketch\"", "\"driverRowsPulled\"", "\"distinctFraction\"", "\"driverState\":\"ENDED\"", "\"pendingRows\":-1");
        PartitionSample back = json.readValue(text, PartitionSample.class);
        assertThat(back).isEqualTo(sample);
        assertThat(back.keyDistinct()).isEqualTo(5);
    }

    private Output runWith(ExecutionPlan plan, SampleSink sink) {
        try (TaskContext context = context(testing, BATCH_ROWS, sink)) {
            return run(plan, context);
        }
    }
}
