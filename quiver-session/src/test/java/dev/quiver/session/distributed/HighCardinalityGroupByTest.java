package dev.quiver.session.distributed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.distributed.config.DistributedSettings;
import dev.quiver.distributed.coordinator.FinalPlan;
import dev.quiver.distributed.coordinator.spi.QueryEvent;
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
import dev.quiver.engine.spill.SpillMetrics;
import dev.quiver.engine.testing.Eventually;
import dev.quiver.session.QuerySession;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The high-cardinality GROUP BY of issue 6 at a CI-sized scale: ~600,000 groups of TPC-H SF 0.1
 * lineitem keys on 8 local workers of 32 MiB each (24 MiB under AQE). The advisory task count
 * (static: the scan's 1 task; AQE: 2 tasks) puts too many groups in a task, which exceeds its worker's memory; the
 * {@link AggregateMemorySizingHandler} requires enough consumer tasks and the query completes, with
 * the single-node result; its per-task estimate is within 2× of the measured peak. The advisory
 * runs have spilling disabled ({@code spill_enabled = false}), which is what makes them fail; with
 * spilling the advisory count completes too, its FINAL aggregates spilling.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class HighCardinalityGroupByTest {
    private static final int WORKERS = 8;
    private static final long WORKER_LIMIT = 32L << 20;
    /**
     * Under AQE: 2 tasks of 8 partitions whose tables reach 38 MiB per task; at 32 MiB one run in
     * eight completed (a task's partitions do not always peak together), so well below that.
     */
    private static final long ADAPTIVE_WORKER_LIMIT = 24L << 20;
    private static final int STATIC_PARTITIONS = 2;
    /** As on 8-core workers: AQE's partitions of 16 MiB then make few, large tasks. */
    private static final int ADAPTIVE_PARTITIONS = 8;
    static final String QUERY = "SELECT count(*), sum(c), sum(q), sum(s), sum(l_orderkey + l_partkey) FROM (SELECT l_orderkey, l_partkey, count(*) AS c,"
            + " sum(l_quantity) AS q, max(l_suppkey) AS s FROM lineitem GROUP BY l_orderkey, l_partkey)";

    private final List<AggregateSizing> sizings = new CopyOnWriteArrayList<>();
    private TpchCatalog catalog;
    private List<List<Object>> expected;

    @BeforeAll
    void start() {
        catalog = TpchCatalog.cached(0.1, 1L << 30);
        try (QuerySession singleNode = QuerySession.builder().catalog(catalog).targetPartitions(2).build()) {
            expected = singleNode.executeScript(QUERY).rows();
        }
        assertThat(((Number) expected.get(0).get(0)).longValue()).isGreaterThan(500_000);
    }

    @AfterAll
    void stop() {
        catalog.close();
    }

    /** Statically the advisory count is the scan's: 1 task here. */
    @Test
    void advisoryRunsOutOfMemoryAndTheExactCountFromTheHandlerCompletes() {
        try (QuerySession advisory = session(false, false, WORKER_LIMIT, STATIC_PARTITIONS).set(EngineSettings.SPILL_ENABLED, false).build()) {
            assertRunsOutOfMemory(advisory);
        }
        assertTheExactCountCompletes(false, STATIC_PARTITIONS, WORKER_LIMIT);
    }

    /** With spilling (the default) the advisory count's FINAL aggregates spill to their workers' disks and the query completes. */
    @Test
    void advisoryWithSpillingCompletesBySpilling() {
        try (QuerySession advisory = session(false, false, WORKER_LIMIT, STATIC_PARTITIONS).build()) {
            DistributedRun run = DistributedRun.query(advisory, QUERY);
            assertThat(run.result().rows()).isEqualTo(expected);
            DistributedRun.assertSucceeded(run.finalPlan());
            long spills = run.finalPlan().taskReports().stream().flatMap(report -> report.metrics().stream())
                    .filter(node -> node.name().equals("HashAggregateExec"))
                    .mapToLong(node -> node.counters().getOrDefault(SpillMetrics.SPILL_COUNT, 0L)).sum();
            assertThat(spills).as("times the aggregates spilled").isPositive();
            assertThat(Eventually.await(() -> advisory.localCluster().orElseThrow().poolUsedBytes(), 0L, Duration.ofSeconds(10))).isZero();
        }
    }

    /**
     * AQE sizes the GROUP BY by bytes: ~130 MiB of cost at 16 MiB per partition and 8 partitions
     * per task gives 2 tasks, whose tables (300,000 groups each) exceed a worker. Should a sample be
     * cut short by the workers' memory, the count only gets smaller.
     */
    @Test
    void advisoryAqeRunsOutOfMemoryAndTheExactCountFromTheHandlerCompletes() {
        List<QueryEvent> heard = new CopyOnWriteArrayList<>();
        try (QuerySession advisory = QuerySession.builder().catalog(catalog).targetPartitions(ADAPTIVE_PARTITIONS)
                .localWorkers(WORKERS, ADAPTIVE_WORKER_LIMIT).set(EngineSettings.SPILL_ENABLED, false)
                .set(DistributedSettings.DYNAMIC_TASK_COUNT, true).queryEventListener(heard::add).build()) {
            assertRunsOutOfMemory(advisory);
        }
        int consumerStage = heard.stream().filter(event -> event instanceof QueryEvent.StageClosed closed && !closed.inputStageIds().isEmpty())
                .mapToInt(event -> ((QueryEvent.StageClosed) event).stageId()).findFirst().orElseThrow();
        assertThat(heard).filteredOn(event -> event instanceof QueryEvent.StageSized sized && sized.stageId() == consumerStage)
                .singleElement().satisfies(event -> {
                    QueryEvent.StageSized sized = (QueryEvent.StageSized) event;
                    assertThat(sized.taskCount()).as("AQE's advisory count").isLessThan(WORKERS);
                    assertThat(sized.hint()).isInstanceOf(TaskCountHint.Desired.class);
                });
        assertTheExactCountCompletes(true, ADAPTIVE_PARTITIONS, ADAPTIVE_WORKER_LIMIT);
    }

    private static void assertRunsOutOfMemory(QuerySession advisory) {
        assertThatThrownBy(() -> DistributedRun.query(advisory, QUERY))
                // the consumer task's failure; or, when its report comes later than the failure grace (a loaded
                // machine), the head's read of its output, which carries the task's code
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).as("%s", e.getMessage()).isEqualTo(ErrorCode.EXCEEDED_MEMORY_LIMIT))
                .hasMessageContaining("Resources exhausted");
        assertThat(Eventually.await(() -> advisory.localCluster().orElseThrow().poolUsedBytes(), 0L, Duration.ofSeconds(10))).isZero();
    }

    private void assertTheExactCountCompletes(boolean adaptive, int partitions, long workerLimit) {
        sizings.clear();
        try (QuerySession exact = session(adaptive, true, workerLimit, partitions).build()) {
            DistributedRun run = DistributedRun.query(exact, QUERY);
            assertThat(run.result().rows()).isEqualTo(expected);
            DistributedRun.assertSucceeded(run.finalPlan());
            Stage consumer = aggregateStage(run.finalPlan());
            assertThat(consumer.taskCountHint()).isInstanceOf(TaskCountHint.Exact.class);
            assertThat(consumer.taskCountHint().origin()).startsWith("handler AggregateMemorySizingHandler");
            AggregateSizing sizing = sizings.get(sizings.size() - 1);
            assertThat(consumer.taskCount()).isEqualTo(sizing.consumerTasks()).isGreaterThan(1).isLessThanOrEqualTo(WORKERS);
            // the handler's P_c (its own when the planned one leaves the tables half empty) is what the consumer ran with
            assertThat(consumer.partitionsPerTask()).isEqualTo(sizing.partitionsPerConsumerTask());
            // the estimate of one consumer task's aggregate state against the FINAL aggregates' measured peaks (summed over the task's partitions)
            for (TaskReport report : run.finalPlan().reportsOf(consumer.stageId())) {
                long measured = report.metrics().stream().filter(node -> node.name().equals("HashAggregateExec"))
                        .mapToLong(OperatorMetricsSnapshot::summedPeakMemoryBytes).max().orElseThrow();
                assertThat(measured).as("measured peak of %s vs the estimate %s", report.taskId(), sizing.summary())
                        .isBetween(sizing.taskBytes() / 2, sizing.taskBytes() * 2);
            }
        }
    }

    @Test
    void twoWorkerMemoryLimitsGiveTwoConsumerCounts() {
        sizings.clear();
        try (QuerySession small = session(false, true, WORKER_LIMIT, STATIC_PARTITIONS).build();
                QuerySession large = session(false, true, 4 * WORKER_LIMIT, STATIC_PARTITIONS).build()) {
            small.executeScript("EXPLAIN " + QUERY);
            int smallTasks = sizings.get(sizings.size() - 1).consumerTasks();
            large.executeScript("EXPLAIN " + QUERY);
            int largeTasks = sizings.get(sizings.size() - 1).consumerTasks();
            assertThat(smallTasks).isGreaterThan(largeTasks);
            assertThat((String) large.executeScript("EXPLAIN " + QUERY).rows().get(0).get(0))
                    .contains("Exact(" + largeTasks + ") from handler AggregateMemorySizingHandler");
        }
    }

    private QuerySession.Builder session(boolean adaptive, boolean handler, long workerLimit, int partitions) {
        QuerySession.Builder builder = QuerySession.builder().catalog(catalog).targetPartitions(partitions).localWorkers(WORKERS, workerLimit)
                .set(DistributedSettings.DYNAMIC_TASK_COUNT, adaptive);
        if (handler) {
            builder.stageEventHandler(new AggregateMemorySizingHandler(AggregateMemorySizingHandler.DEFAULT_SAFETY_FACTOR, sizings::add));
        }
        return builder;
    }

    private static Stage aggregateStage(FinalPlan done) {
        return done.plan().stages().stream().filter(stage -> stage.taskCountHint().origin().startsWith("handler ")).findFirst().orElseThrow();
    }
}
