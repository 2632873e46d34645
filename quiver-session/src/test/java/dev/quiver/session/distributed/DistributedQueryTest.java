package dev.quiver.session.distributed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.distributed.config.DistributedSettings;
import dev.quiver.distributed.coordinator.FinalPlan;
import dev.quiver.distributed.coordinator.spi.QueryEvent;
import dev.quiver.distributed.plan.Stage;
import dev.quiver.distributed.protocol.TaskId;
import dev.quiver.distributed.protocol.TaskState;
import dev.quiver.distributed.worker.LocalCluster;
import dev.quiver.distributed.worker.WorkerServer;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.QuiverExecutor;
import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.engine.testing.Eventually;
import dev.quiver.session.QueryHandle;
import dev.quiver.session.QuerySession;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Task states, query events, errors and clean-up of distributed queries on a 4-worker local
 * cluster (real Flight servers on 127.0.0.1) over TPC-H SF 0.01.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DistributedQueryTest {
    private final List<QueryEvent> heard = new CopyOnWriteArrayList<>();
    private TpchCatalog catalog;
    private QuerySession session;
    private LocalCluster cluster;

    @BeforeAll
    void start() {
        catalog = TpchCatalog.cached(0.01, 256L << 20);
        session = QuerySession.builder().catalog(catalog).targetPartitions(2).localWorkers(4).set(DistributedSettings.BYTES_PER_PARTITION_FOR_SCANS, 1024L)
                .queryEventListener(heard::add).build();
        cluster = session.localCluster().orElseThrow();
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

    /**
     * LIMIT over a coalesce-headed stage: the head reads the stage's partitions in order and stops once
     * the limit is satisfied, so the producer tasks it never asked for were never executed. 50 runs in a
     * row: every task terminal, some SKIPPED in every run, every final plan complete, never by the
     * last-resort timeout. Then a LIMIT over a join whose build side is empty: the lineitem tasks
     * feeding the probe side are stopped (CANCELLED) when the query ends.
     */
    @Test
    void limitLeavesTasksUnexecutedAndFinalPlanStillCompletes() {
        for (int run = 0; run < 50; run++) {
            DistributedRun result = DistributedRun.query(session, "SELECT l_orderkey FROM lineitem LIMIT 3");
            assertThat(result.result().rows()).hasSize(3);
            DistributedRun.assertSucceeded(result.finalPlan());
            assertThat(result.finalPlan().count(TaskState.SKIPPED)).as("run %d: tasks never executed end SKIPPED", run).isPositive();
        }
        session.execute("SET distributed.broadcast_joins = false").close();
        session.execute("SET hash_join_collect_left_max_rows = 0").close();
        try {
            for (int run = 0; run < 5; run++) {
                DistributedRun result = DistributedRun.query(session, "SELECT l_orderkey, n_name FROM lineitem JOIN nation ON l_suppkey = n_nationkey"
                        + " WHERE n_name = 'ATLANTIS' LIMIT 5");
                assertThat(result.result().rows()).isEmpty();
                DistributedRun.assertSucceeded(result.finalPlan());
            }
        } finally {
            session.execute("SET distributed.broadcast_joins = true").close();
            session.execute("SET hash_join_collect_left_max_rows = 100000").close();
        }
        assertNothingLeftOnWorkers();
    }

    @Test
    void eventsComeInStageAndTaskOrder() {
        heard.clear();
        QueryHandle handle = session.execute("SELECT o_orderpriority, count(*) FROM orders GROUP BY o_orderpriority ORDER BY 1");
        assertThat(handle.collect().rows()).hasSize(5);
        FinalPlan plan = DistributedRun.awaitFinalPlan(handle);
        List<QueryEvent> events = handle.events();
        assertThat(heard).containsExactlyElementsOf(events);

        // each stage: closed, then sized (with the planned count and hint), then dispatched, after its inputs were dispatched
        Map<Integer, Integer> closedAt = new HashMap<>();
        Map<Integer, Integer> dispatchedAt = new HashMap<>();
        for (int i = 0; i < events.size(); i++) {
            if (events.get(i) instanceof QueryEvent.StageClosed closed) {
                closedAt.put(closed.stageId(), i);
            } else if (events.get(i) instanceof QueryEvent.StageDispatched dispatched) {
                dispatchedAt.put(dispatched.stageId(), i);
            } else if (events.get(i) instanceof QueryEvent.StageSized sized) {
                Stage stage = plan.plan().stage(sized.stageId());
                assertThat(sized.taskCount()).isEqualTo(stage.taskCount());
                assertThat(sized.hint()).isEqualTo(stage.taskCountHint());
                assertThat(closedAt).containsKey(sized.stageId());
            }
        }
        for (Stage stage : plan.plan().stages()) {
            assertThat(closedAt.get(stage.stageId())).isLessThan(dispatchedAt.get(stage.stageId()));
            for (int input : stage.inputStageIds()) {
                assertThat(dispatchedAt.get(input)).isLessThan(closedAt.get(stage.stageId()));
            }
        }
        // each task: PLANNED, SENT, ..., its terminal state last, and no state after it
        Map<TaskId, List<TaskState>> states = new HashMap<>();
        events.stream().filter(e -> e instanceof QueryEvent.TaskStateChanged).map(e -> (QueryEvent.TaskStateChanged) e)
                .forEach(e -> states.computeIfAbsent(e.task(), id -> new ArrayList<>()).add(e.state()));
        assertThat(states).hasSize(plan.taskReports().size());
        assertThat(handle.taskStates()).hasSize(plan.taskReports().size()).allSatisfy((task, state) -> assertThat(state.isTerminal()).isTrue());
        states.forEach((task, sequence) -> {
            assertThat(sequence.subList(0, 2)).as("%s", task).containsExactly(TaskState.PLANNED, TaskState.SENT);
            assertThat(sequence.get(sequence.size() - 1).isTerminal()).as("%s ends terminal: %s", task, sequence).isTrue();
            assertThat(sequence.stream().filter(TaskState::isTerminal).count()).as("%s", task).isEqualTo(1);
        });
        assertThat(events.stream().filter(e -> e instanceof QueryEvent.QueryEnded).toList())
                .containsExactly(new QueryEvent.QueryEnded(handle.queryId(), QueryEvent.Outcome.FINISHED, java.util.Optional.empty()));
    }

    @Test
    void anErrorInsideATaskReachesTheClientWithItsCodeNamingWorkerAndStage() {
        QueryHandle handle = session.execute("SELECT l_orderkey / (l_linenumber - l_linenumber) FROM lineitem");
        assertThatThrownBy(handle::collect).isInstanceOfSatisfying(QuiverException.class, e -> {
            assertThat(e.errorCode()).isEqualTo(ErrorCode.DIVISION_BY_ZERO);
            assertThat(e.getMessage()).containsPattern("stage \\d+").contains("127.0.0.1:");
        });
        FinalPlan plan = DistributedRun.awaitFinalPlan(handle);
        assertThat(plan.failure()).isPresent();
        DistributedRun.assertAllTasksTerminal(plan);
        assertThat(plan.count(TaskState.FAILED)).isPositive();
        assertNothingLeftOnWorkers();
    }

    @Test
    void fiftyQueriesInARowLeaveNoTaskStateBufferOrThread() {
        DistributedRun.query(session, "SELECT count(*) FROM orders");
        Eventually.await(cluster::activeTasks, 0, Duration.ofSeconds(5));
        long bytesBefore = cluster.allocatedBytes();
        int threadsBefore = cluster.workers().stream().mapToInt(WorkerServer::activeThreads).sum();
        List<String> queries = List.of(
                "SELECT count(*) FROM orders",
                "SELECT l_returnflag, sum(l_quantity) FROM lineitem GROUP BY l_returnflag",
                "SELECT c_mktsegment, count(*) FROM customer JOIN orders ON c_custkey = o_custkey GROUP BY c_mktsegment",
                "SELECT o_orderkey FROM orders ORDER BY o_totalprice DESC LIMIT 10",
                "SELECT n_name FROM nation WHERE n_regionkey = 1");
        for (int i = 0; i < 50; i++) {
            DistributedRun run = DistributedRun.query(session, queries.get(i % queries.size()));
            DistributedRun.assertSucceeded(run.finalPlan());
        }
        assertNothingLeftOnWorkers();
        assertThat(Eventually.await(cluster::allocatedBytes, bytesBefore, Duration.ofSeconds(5))).as("Arrow memory held by the workers").isEqualTo(bytesBefore);
        int threadsAfter = Eventually.awaitUntil(() -> cluster.workers().stream().mapToInt(WorkerServer::activeThreads).sum(),
                threads -> threads <= threadsBefore, Duration.ofSeconds(5));
        assertThat(threadsAfter).as("busy worker threads").isLessThanOrEqualTo(threadsBefore);
    }

    @Test
    void concurrentQueriesShareTheWorkers() throws Exception {
        List<String> queries = List.of(
                "SELECT l_returnflag, l_linestatus, count(*), sum(l_quantity) FROM lineitem GROUP BY l_returnflag, l_linestatus ORDER BY 1, 2",
                "SELECT c_mktsegment, count(*) FROM customer JOIN orders ON c_custkey = o_custkey GROUP BY c_mktsegment ORDER BY 1",
                "SELECT n_name, count(*) FROM supplier JOIN nation ON s_nationkey = n_nationkey GROUP BY n_name ORDER BY 1",
                "SELECT o_orderpriority, count(*) FROM orders GROUP BY o_orderpriority ORDER BY 1");
        List<List<List<Object>>> expected = new ArrayList<>();
        for (String query : queries) {
            expected.add(session.executeScript(query).rows());
        }
        try (QuiverExecutor executor = new QuiverExecutor("concurrent-queries")) {
            List<CompletableFuture<DistributedRun>> runs = new ArrayList<>();
            for (int round = 0; round < 3; round++) {
                for (String query : queries) {
                    runs.add(CompletableFuture.supplyAsync(() -> DistributedRun.query(session, query), executor.asExecutorService()));
                }
            }
            for (int i = 0; i < runs.size(); i++) {
                DistributedRun run = runs.get(i).get(60, TimeUnit.SECONDS);
                assertThat(run.result().rows()).isEqualTo(expected.get(i % queries.size()));
                DistributedRun.assertSucceeded(run.finalPlan());
            }
        }
        assertNothingLeftOnWorkers();
    }

    @Test
    void explainShowsStagesAndExplainAnalyzeShowsEveryTasksState() {
        String plan = (String) session.executeScript("EXPLAIN SELECT o_orderpriority, count(*) FROM orders GROUP BY o_orderpriority").rows().get(0).get(0);
        assertThat(plan).contains("Stage", "StageInputExec", "tasks");
        String analyzed = (String) session.executeScript("EXPLAIN ANALYZE SELECT o_orderpriority, count(*) FROM orders GROUP BY o_orderpriority")
                .rows().get(0).get(0);
        assertThat(analyzed).contains("FINISHED", "127.0.0.1:", "output_rows=");
        session.execute("SET explain_format = 'dot'").close();
        try {
            String dot = (String) session.executeScript("EXPLAIN SELECT count(*) FROM orders").rows().get(0).get(0);
            assertThat(dot).startsWith("digraph").contains("->");
        } finally {
            session.execute("SET explain_format = 'text'").close();
        }
        assertNothingLeftOnWorkers();
    }

    @Test
    void explainAnalyzeInDotShowsTheAqeDecisionsOfAnAdaptiveQueryOnly() {
        String query = "EXPLAIN ANALYZE SELECT o_orderpriority, count(*) FROM orders GROUP BY o_orderpriority";
        session.execute("SET explain_format = 'dot'").close();
        try {
            String planned = (String) session.executeScript(query).rows().get(0).get(0);
            assertThat(planned).startsWith("digraph").contains("FINISHED").doesNotContain("aqe:");
            session.execute("SET distributed.dynamic_task_count = true").close();
            String adaptive = (String) session.executeScript(query).rows().get(0).get(0);
            assertThat(adaptive).startsWith("digraph").contains("FINISHED")
                    .contains("\\naqe: 1 task from", "\\naqe: cost ", "\\naqe: estimated rows=", "\\naqe: actual rows=");
        } finally {
            session.execute("SET distributed.dynamic_task_count = false").close();
            session.execute("SET explain_format = 'text'").close();
        }
        assertNothingLeftOnWorkers();
    }

    @Test
    void distributedSettingsAreValidated() {
        assertThatThrownBy(() -> session.execute("SET distributed.compression = 'snappy'")).isInstanceOfSatisfying(QuiverException.class,
                e -> assertThat(e.getMessage()).contains("distributed.compression", "snappy", "one of lz4, zstd, none"));
        assertThatThrownBy(() -> session.execute("SET distributed.max_tasks_per_stage = -1")).isInstanceOf(QuiverException.class);
        session.execute("SET distributed.dynamic_task_count = true").close();
        try {
            // adaptive task counts (issue 5): the query runs, and EXPLAIN shows the single-node plan
            assertThat(session.executeScript("SELECT count(*) FROM orders").rows()).containsExactly(List.of(15000L));
            String explain = (String) session.executeScript("EXPLAIN SELECT count(*) FROM orders").rows().get(0).get(0);
            assertThat(explain).contains("AQE decides").doesNotContain("Stage ");
        } finally {
            session.execute("SET distributed.dynamic_task_count = false").close();
        }
        session.execute("SET distributed.compression = 'zstd'").close();
        session.execute("SET distributed.max_tasks_per_stage = 2").close();
        try {
            DistributedRun run = DistributedRun.query(session, "SELECT l_returnflag, count(*) FROM lineitem GROUP BY l_returnflag ORDER BY 1");
            assertThat(run.result().rows()).hasSize(3);
            assertThat(run.finalPlan().plan().stages()).allSatisfy(stage -> assertThat(stage.taskCount()).isLessThanOrEqualTo(2));
        } finally {
            session.execute("SET distributed.compression = 'lz4'").close();
            session.execute("SET distributed.max_tasks_per_stage = 0").close();
        }
        session.execute("SET distributed.collect_metrics = false").close();
        try {
            DistributedRun run = DistributedRun.query(session, "SELECT count(*) FROM orders");
            assertThat(run.finalPlan().taskReports()).isNotEmpty().allSatisfy(r -> assertThat(r.metrics()).isEmpty());
        } finally {
            session.execute("SET distributed.collect_metrics = true").close();
        }
        assertThat(DistributedRun.query(session, "SELECT count(*) FROM orders").finalPlan().taskReports())
                .allSatisfy(r -> assertThat(r.metrics()).isNotEmpty());
    }
}
