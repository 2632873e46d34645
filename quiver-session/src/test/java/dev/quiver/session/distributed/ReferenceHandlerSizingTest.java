package dev.quiver.session.distributed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.distributed.config.DistributedSettings;
import dev.quiver.distributed.coordinator.FinalPlan;
import dev.quiver.distributed.handler.AggregateMemorySizingHandler;
import dev.quiver.distributed.handler.AggregateSizing;
import dev.quiver.distributed.plan.Stage;
import dev.quiver.distributed.plan.TaskCountHint;
import dev.quiver.distributed.protocol.OperatorMetricsSnapshot;
import dev.quiver.distributed.protocol.TaskReport;
import dev.quiver.engine.config.EngineSettings;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.engine.testing.Eventually;
import dev.quiver.session.QuerySession;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The reference handler on the GROUP BYs it used to size wrong (issue 12 item 6), at TPC-H SF 0.2 on
 * 8 local workers of 24 MiB each under AQE (as the demo runs): a SINGLE-mode
 * {@code COUNT(DISTINCT x) ... GROUP BY k}, which it ignored, and a 100-byte string key, which it
 * counted as 16 bytes. AQE's advisory count runs out of memory (spilling disabled, with which the
 * string-key GROUP BY would complete); the handler's exact count completes
 * with the single-node result, and its estimate of each consumer task's aggregate state is within
 * 1.5× of the state the task measured.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReferenceHandlerSizingTest {
    private static final int WORKERS = 8;
    private static final long WORKER_LIMIT = 24L << 20;
    private static final int PARTITIONS = 8;
    /** 300,000 orders, each with its ~4 distinct parts: 1.2 million (group, value) pairs in the DISTINCT aggregate. */
    private static final String COUNT_DISTINCT = "SELECT count(*), sum(d), sum(l_orderkey) FROM (SELECT l_orderkey, count(DISTINCT l_partkey) AS d"
            + " FROM lineitem GROUP BY l_orderkey)";
    /** 300,000 groups of a key of 100 bytes and more. */
    private static final String STRING_KEY = "SELECT count(*), sum(c), sum(char_length(k)) FROM (SELECT '" + "x".repeat(93)
            + "' || CAST(l_orderkey AS VARCHAR) AS k, count(*) AS c FROM lineitem GROUP BY 1)";

    private final List<AggregateSizing> sizings = new CopyOnWriteArrayList<>();
    private TpchCatalog catalog;
    private QuerySession singleNode;

    @BeforeAll
    void start() {
        catalog = TpchCatalog.cached(0.2, 1L << 30);
        singleNode = QuerySession.builder().catalog(catalog).targetPartitions(2).build();
    }

    @AfterAll
    void stop() {
        try (TpchCatalog closedLast = catalog; QuerySession closedFirst = singleNode) {
            // closed in this order
        }
    }

    static Stream<String> queries() {
        return Stream.of(COUNT_DISTINCT, STRING_KEY);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("queries")
    void advisoryRunsOutOfMemoryAndTheHandlersExactCountCompletesAsEstimated(String query) {
        List<List<Object>> expected = singleNode.executeScript(query).rows();
        assertThat(((Number) expected.get(0).get(0)).longValue()).isEqualTo(300_000);
        try (QuerySession advisory = session(false)) {
            assertThatThrownBy(() -> DistributedRun.query(advisory, query))
                    // the consumer task's failure, or the head's read of its output (which carries the task's code)
                    .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).as("%s", e.getMessage()).isEqualTo(ErrorCode.EXCEEDED_MEMORY_LIMIT))
                    .hasMessageContaining("Resources exhausted");
            assertThat(Eventually.await(() -> advisory.localCluster().orElseThrow().poolUsedBytes(), 0L, Duration.ofSeconds(10))).isZero();
        }
        sizings.clear();
        try (QuerySession exact = session(true)) {
            DistributedRun run = DistributedRun.query(exact, query);
            assertThat(run.result().rows()).isEqualTo(expected);
            DistributedRun.assertSucceeded(run.finalPlan());
            Stage consumer = aggregateStage(run.finalPlan());
            assertThat(consumer.taskCountHint()).isInstanceOf(TaskCountHint.Exact.class);
            AggregateSizing sizing = sizings.get(sizings.size() - 1);
            assertThat(consumer.taskCount()).isEqualTo(sizing.consumerTasks());
            for (TaskReport report : run.finalPlan().reportsOf(consumer.stageId())) {
                long measured = report.metrics().stream().filter(node -> node.name().equals("HashAggregateExec"))
                        .mapToLong(OperatorMetricsSnapshot::summedPeakMemoryBytes).max().orElseThrow();
                assertThat((double) sizing.estimatedTaskBytes()).as("estimate %s vs the measured peak %d of %s", sizing.summary(), measured, report.taskId())
                        .isBetween(measured / 1.5, measured * 1.5);
            }
        }
    }

    private QuerySession session(boolean handler) {
        QuerySession.Builder builder = QuerySession.builder().catalog(catalog).targetPartitions(PARTITIONS).localWorkers(WORKERS, WORKER_LIMIT)
                .set(DistributedSettings.DYNAMIC_TASK_COUNT, true);
        if (handler) {
            builder.stageEventHandler(new AggregateMemorySizingHandler(AggregateMemorySizingHandler.DEFAULT_SAFETY_FACTOR, sizings::add));
        } else {
            // the advisory count must run out of memory, not spill
            builder.set(EngineSettings.SPILL_ENABLED, false);
        }
        return builder.build();
    }

    private static Stage aggregateStage(FinalPlan done) {
        return done.plan().stages().stream().filter(stage -> stage.taskCountHint().origin().startsWith("handler ")).findFirst().orElseThrow();
    }
}
