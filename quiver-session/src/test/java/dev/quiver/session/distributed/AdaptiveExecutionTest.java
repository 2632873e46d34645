package dev.quiver.session.distributed;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.distributed.aqe.StageDecision;
import dev.quiver.distributed.config.DistributedSettings;
import dev.quiver.distributed.coordinator.spi.QueryEvent;
import dev.quiver.distributed.plan.Stage;
import dev.quiver.distributed.protocol.OperatorMetricsSnapshot;
import dev.quiver.distributed.protocol.TaskReport;
import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.session.QuerySession;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Adaptive task counts (issue 5, DESIGN §5) on a 4-worker local cluster over TPC-H SF 0.01: the
 * decisions AQE takes, the order of the query events, that nothing is computed twice, unions, and a
 * LIMIT that ends the query while producers are sampled.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AdaptiveExecutionTest {
    private static final long SAMPLE_BYTES = 64L << 10;
    private static final int BATCH_SIZE = 1024;
    /** lineitem at SF 0.01. */
    private static final long LINEITEM_ROWS = 60175;

    private final List<QueryEvent> heard = new CopyOnWriteArrayList<>();
    private TpchCatalog catalog;
    private QuerySession session;

    @BeforeAll
    void start() {
        catalog = TpchCatalog.cached(0.01, 256L << 20);
        session = QuerySession.builder().catalog(catalog).targetPartitions(2).batchSize(BATCH_SIZE).localWorkers(4).set(DistributedSettings.DYNAMIC_TASK_COUNT, true)
                .set(DistributedSettings.SAMPLE_BYTES_PER_PARTITION, SAMPLE_BYTES).queryEventListener(heard::add).build();
    }

    @AfterAll
    void stop() {
        try (TpchCatalog closedLast = catalog; QuerySession closedFirst = session) {
            assertNothingLeftOnWorkers();
        }
    }

    private void assertNothingLeftOnWorkers() {
        DistributedRun.assertNothingLeftOnWorkers(session, Duration.ofSeconds(5));
    }

    private void set(String name, Object value) {
        session.execute("SET " + name + " = " + value).close();
    }

    @Test
    void tinyInputsCollapseToOneTask() {
        DistributedRun run = DistributedRun.query(session, "SELECT n_regionkey, count(*) FROM nation GROUP BY n_regionkey ORDER BY 1");
        assertThat(run.result().rows()).hasSize(5);
        DistributedRun.assertSucceeded(run.finalPlan());
        assertThat(run.finalPlan().plan().stages()).hasSizeGreaterThan(1)
                .allSatisfy(stage -> assertThat(stage.taskCount()).as("stage %d: %s", stage.stageId(), stage.taskCountHint()).isEqualTo(1));
        StageDecision leaf = run.finalPlan().decisions().get(run.finalPlan().plan().stages().get(0).stageId());
        assertThat(leaf.costHint().taskCount()).isEqualTo(1);
        assertThat(leaf.costHint().origin()).contains("distributed.dynamic_bytes_per_partition");
    }

    /**
     * The scan stage's count is the formula's for its cost (clamped to the limit), grows with the data
     * (lineitem is four times orders) and with a smaller budget, and never exceeds max_tasks_per_stage.
     */
    @Test
    void taskCountGrowsWithDataAndSmallerBudgetUpToTheLimit() {
        String orders = "SELECT o_orderpriority, max(o_comment), count(*) FROM orders GROUP BY o_orderpriority";
        String lineitem = "SELECT l_returnflag, max(l_comment), count(*) FROM lineitem GROUP BY l_returnflag";
        try {
            assertThat(scanStage(lineitem).taskCount()).as("16 MiB per partition").isEqualTo(1);
            // a budget that gives orders' scan stage two partitions, one task; lineitem, four times the data, gets more
            long ordersCost = scanStageDecision(orders).cost().costBytes();
            set("distributed.dynamic_bytes_per_partition", ordersCost / 2 + 1);
            assertThat(scanStage(orders).taskCount()).isEqualTo(1);
            assertThat(scanStage(lineitem).taskCount()).isGreaterThan(1);
            set("distributed.dynamic_bytes_per_partition", 64L << 10);
            assertThat(scanStage(lineitem).taskCount()).isEqualTo(4);
            set("distributed.max_tasks_per_stage", 3);
            assertThat(scanStage(lineitem).taskCount()).isEqualTo(3);
        } finally {
            set("distributed.dynamic_bytes_per_partition", 16L << 20);
            set("distributed.max_tasks_per_stage", 0);
        }
    }

    private Stage scanStage(String sql) {
        return scanStageRun(sql).finalPlan().plan().stages().get(0);
    }

    private StageDecision scanStageDecision(String sql) {
        DistributedRun run = scanStageRun(sql);
        return run.finalPlan().decisions().get(run.finalPlan().plan().stages().get(0).stageId());
    }

    /** Runs a one-shuffle GROUP BY; checks every stage's count against the formula and the limit. */
    private DistributedRun scanStageRun(String sql) {
        DistributedRun run = DistributedRun.query(session, sql);
        DistributedRun.assertSucceeded(run.finalPlan());
        long budget = session.settings().get(DistributedSettings.DYNAMIC_BYTES_PER_PARTITION);
        int max = session.settings().get(DistributedSettings.MAX_TASKS_PER_STAGE) == 0 ? 4 : session.settings().get(DistributedSettings.MAX_TASKS_PER_STAGE);
        for (Stage stage : run.finalPlan().plan().stages()) {
            StageDecision decision = run.finalPlan().decisions().get(stage.stageId());
            long partitions = (decision.cost().costBytes() + budget - 1) / budget;
            long wanted = Math.max(1, Math.min(max, (partitions + stage.partitionsPerTask() - 1) / stage.partitionsPerTask()));
            assertThat(decision.costHint().taskCount()).as("%s stage %d: %s", sql, stage.stageId(), decision.costHint()).isEqualTo((int) wanted);
            assertThat(stage.taskCount()).isLessThanOrEqualTo(max);
        }
        return run;
    }

    /** A stage reading two inputs (a shuffled join) is costed and sized only after both inputs were sampled. */
    @Test
    void aStageFedByTwoInputsIsSizedAfterBothAreSampled() {
        set("distributed.broadcast_joins", false);
        set("hash_join_collect_left_max_rows", 0);
        try {
            heard.clear();
            DistributedRun run = DistributedRun.query(session, "SELECT o_orderpriority, count(*) FROM orders JOIN lineitem ON o_orderkey = l_orderkey"
                    + " WHERE l_quantity < 10 GROUP BY o_orderpriority ORDER BY 1");
            assertThat(run.result().rows()).hasSize(5);
            DistributedRun.assertSucceeded(run.finalPlan());
            Stage join = run.finalPlan().plan().stages().stream().filter(stage -> stage.inputStageIds().size() == 2).findFirst().orElseThrow();
            assertSampledBeforeSized(join);
        } finally {
            set("distributed.broadcast_joins", true);
            set("hash_join_collect_left_max_rows", 100000);
        }
    }

    private void assertSampledBeforeSized(Stage consumer) {
        List<QueryEvent> events = List.copyOf(heard);
        int sized = indexOf(events, e -> e instanceof QueryEvent.StageSized s && s.stageId() == consumer.stageId());
        int costed = indexOf(events, e -> e instanceof QueryEvent.StageCosted c && c.stageId() == consumer.stageId());
        assertThat(costed).isNotNegative().isLessThan(sized);
        for (int input : consumer.inputStageIds()) {
            int sampled = indexOf(events, e -> e instanceof QueryEvent.StageSampled s && s.stageId() == input);
            // a task samples as soon as it is sent, so a stage may be sampled before the event that all its tasks were sent
            int inputSized = indexOf(events, e -> e instanceof QueryEvent.StageSized s && s.stageId() == input);
            assertThat(indexOf(events, e -> e instanceof QueryEvent.StageDispatched d && d.stageId() == input)).as("stage %d dispatched", input)
                    .isNotNegative().isLessThan(sized);
            assertThat(sampled).as("stage %d sampled after it was sized and before stage %d is costed", input, consumer.stageId())
                    .isGreaterThan(inputSized).isLessThan(costed);
        }
    }

    private static int indexOf(List<QueryEvent> events, java.util.function.Predicate<QueryEvent> match) {
        for (int i = 0; i < events.size(); i++) {
            if (match.test(events.get(i))) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Nothing computed twice: the leaves of the adaptive run output exactly the rows of the static
     * run's leaves (the sampled batches are replayed, never re-read), and the results are equal.
     */
    @Test
    void samplingComputesNothingTwice() {
        String sql = "SELECT l_orderkey, sum(l_quantity) AS q, count(*) AS c FROM lineitem WHERE l_discount > 0.02 GROUP BY l_orderkey";
        set("distributed.dynamic_bytes_per_partition", 256L << 10);
        DistributedRun adaptive;
        DistributedRun fixed;
        try {
            adaptive = DistributedRun.query(session, sql);
            set("distributed.dynamic_task_count", false);
            fixed = DistributedRun.query(session, sql);
        } finally {
            set("distributed.dynamic_task_count", true);
            set("distributed.dynamic_bytes_per_partition", 16L << 20);
        }
        DistributedRun.assertSucceeded(adaptive.finalPlan());
        DistributedRun.assertSucceeded(fixed.finalPlan());
        assertThat(adaptive.finalPlan().plan().stages().get(0).taskCount()).as("the scan stage fans out").isGreaterThan(1);
        long leafRows = leafRows(adaptive.finalPlan().taskReports());
        assertThat(leafRows).isEqualTo(leafRows(fixed.finalPlan().taskReports())).isEqualTo(LINEITEM_ROWS);
        assertThat(adaptive.result().rows()).hasSameSizeAs(fixed.result().rows());
        assertThat(sorted(adaptive.result().rows())).isEqualTo(sorted(fixed.result().rows()));
    }

    private static long leafRows(List<TaskReport> reports) {
        return reports.stream().flatMap(report -> report.metrics().stream()).filter(node -> node.name().equals("TpchScanExec"))
                .mapToLong(OperatorMetricsSnapshot::outputRows).sum();
    }

    private static List<String> sorted(List<List<Object>> rows) {
        return rows.stream().map(Object::toString).sorted(Comparator.naturalOrder()).toList();
    }

    /** A UNION ALL of 6 children, each its own stage: every child is sampled before the union's stage is sized. */
    @Test
    void aUnionOfSixChildrenWaitsForEveryChildSample() {
        List<String> children = new ArrayList<>();
        for (int line = 1; line <= 6; line++) {
            children.add("SELECT l_suppkey AS k, count(*) AS c FROM lineitem WHERE l_linenumber = " + line + " GROUP BY l_suppkey");
        }
        String sql = "SELECT count(*), sum(c), sum(k) FROM (" + String.join(" UNION ALL ", children) + ") u";
        heard.clear();
        DistributedRun run = DistributedRun.query(session, sql);
        DistributedRun.assertSucceeded(run.finalPlan());
        set("distributed.dynamic_task_count", false);
        try {
            assertThat(DistributedRun.query(session, sql).result().rows()).isEqualTo(run.result().rows());
        } finally {
            set("distributed.dynamic_task_count", true);
        }
        assertThat(run.result().rows().get(0).get(1))
                .isEqualTo(session.executeScript("SELECT count(*) FROM lineitem WHERE l_linenumber <= 6").rows().get(0).get(0));
        Stage union = run.finalPlan().plan().stages().stream().max(Comparator.comparingInt(stage -> stage.inputStageIds().size())).orElseThrow();
        assertThat(union.inputStageIds()).as(describe(run.finalPlan().plan().stages())).hasSizeGreaterThanOrEqualTo(6);
        assertSampledBeforeSized(union);
    }

    private static String describe(List<Stage> stages) {
        return stages.stream().map(stage -> stage.stageId() + "<-" + stage.inputStageIds()).collect(Collectors.joining(", "));
    }

    /**
     * LIMIT 10 over a scan: the head stops after 10 rows; the leaves read at most the sample budget
     * plus one batch per partition; every producer task ends terminal and nothing stays on the workers.
     */
    @Test
    void aLimitStopsTheProducersAfterTheirSamples() {
        DistributedRun run = DistributedRun.query(session, "SELECT l_orderkey, l_comment FROM lineitem WHERE l_quantity > 1 LIMIT 10");
        assertThat(run.result().rows()).hasSize(10);
        DistributedRun.assertSucceeded(run.finalPlan());
        List<TaskReport> reports = run.finalPlan().taskReports();
        long rows = leafRows(reports);
        long bytes = reports.stream().flatMap(report -> report.metrics().stream()).filter(node -> node.name().equals("TpchScanExec"))
                .mapToLong(OperatorMetricsSnapshot::outputBytes).sum();
        int partitions = run.finalPlan().plan().stages().stream().filter(stage -> !stage.isHead())
                .mapToInt(stage -> stage.taskCount() * stage.partitionsPerTask()).sum();
        double bytesPerRow = rows == 0 ? 1 : bytes / (double) rows;
        long bound = partitions * ((long) Math.ceil(SAMPLE_BYTES / bytesPerRow) + BATCH_SIZE);
        assertThat(rows).as("rows read by the leaves of %d partitions", partitions).isLessThanOrEqualTo(bound)
                .isLessThan(LINEITEM_ROWS);
        assertNothingLeftOnWorkers();
    }

    @Test
    void explainAnalyzeShowsTheDecisions() {
        String shown = (String) session.executeScript("EXPLAIN ANALYZE SELECT l_returnflag, count(*) FROM lineitem GROUP BY l_returnflag")
                .rows().get(0).get(0);
        assertThat(shown).contains("aqe: 1 task from").contains("distributed.dynamic_bytes_per_partition").contains("aqe: cost")
                .contains("aqe: estimated rows=").contains("aqe: actual rows=").contains("sampled");
    }
}
