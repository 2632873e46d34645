package dev.quiver.session.distributed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.distributed.config.DistributedSettings;
import dev.quiver.distributed.config.RetryPolicy;
import dev.quiver.distributed.coordinator.FinalPlan;
import dev.quiver.distributed.coordinator.spi.QueryEvent;
import dev.quiver.distributed.explain.DistributedExplain;
import dev.quiver.distributed.protocol.WorkerAddress;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QueryWarning;
import dev.quiver.engine.error.WarningCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.QuiverExecutor;
import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.engine.source.tpch.TpchQueries;
import dev.quiver.engine.testing.Eventually;
import dev.quiver.session.QueryHandle;
import dev.quiver.session.QueryResult;
import dev.quiver.session.QuerySession;
import dev.quiver.session.tpch.AnswerFile;
import dev.quiver.session.tpch.ResultComparator;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;

/**
 * {@code distributed.retry_policy} with worker processes killed by SIGKILL ({@link WorkerProcess#kill}):
 * under QUERY a query that lost a worker before any row reached the client runs again on the others
 * and its result is right (a TPC-H answer file; the row count of SF 1 lineitem); one that had
 * returned rows fails saying so; under NONE the query fails within 10 s naming the worker. Nothing
 * is left on the survivors (tasks, pool memory). (DistributedWorkerProcessTest kills a worker in the
 * middle of a query under NONE.)
 */
class WorkerLossRetryTest {
    private static final Duration CLEAN_WITHIN = Duration.ofSeconds(10);

    /**
     * The worker dies after the query was planned on it and before its tasks were sent: the tasks
     * cannot start there (WORKER_UNREACHABLE), so attempt 1 is ended and the query runs again on the
     * two others; the kill falls in the same place every run.
     */
    @Test
    void underQueryALostWorkerIsRoutedAroundAndTheResultMatchesTheAnswerFile() throws Exception {
        try (WorkerProcess one = WorkerProcess.start();
                WorkerProcess two = WorkerProcess.start();
                WorkerProcess victim = WorkerProcess.start();
                TpchCatalog catalog = TpchCatalog.cached(0.01, 256L << 20);
                QuerySession session = session(catalog, List.of(one.address(), two.address(), victim.address()), RetryPolicy.QUERY)) {
            QueryHandle handle = session.execute(TpchQueries.query(3));
            victim.kill();
            QueryResult result = handle.collect();
            ResultComparator.assertMatches("q3", result.schema(), result.rows(), AnswerFile.parse(TpchQueries.answer(3)).rows());
            // the query's warnings (what the CLI prints): the retry, then the worker the new attempt left out
            assertThat(result.warnings()).extracting(QueryWarning::code).containsExactly(WarningCode.QUERY_RETRIED, WarningCode.WORKER_SKIPPED);

            FinalPlan plan = DistributedRun.awaitFinalPlan(handle);
            DistributedRun.assertSucceeded(plan);
            assertThat(plan.taskReports()).isNotEmpty().noneMatch(report -> report.worker().equals(victim.address()));
            List<QueryEvent> events = handle.events();
            assertThat(events).filteredOn(QueryEvent.QueryRetried.class::isInstance).singleElement()
                    .isInstanceOfSatisfying(QueryEvent.QueryRetried.class, retried -> {
                        assertThat(retried.queryId()).isEqualTo(handle.queryId());
                        assertThat(retried.attempt()).isEqualTo(2);
                        assertThat(retried.retryQueryId()).isEqualTo(handle.queryId() + "-r1");
                        assertThat(retried.error()).containsPattern("^WORKER_(UNREACHABLE|LOST): ").contains(victim.address().toString());
                    });
            // attempt 1 ended (FAILED) before attempt 2, which skipped the dead worker, began
            assertThat(events).filteredOn(e -> e instanceof QueryEvent.QueryEnded || e instanceof QueryEvent.QueryRetried
                    || e instanceof QueryEvent.WorkerSkipped).extracting(e -> e.getClass().getSimpleName() + " " + e.queryId())
                    .containsExactly("QueryEnded " + handle.queryId(), "QueryRetried " + handle.queryId(), "WorkerSkipped " + handle.queryId() + "-r1",
                            "QueryEnded " + handle.queryId() + "-r1");
            // what EXPLAIN ANALYZE shows: the retry, then the skipped worker
            String explained = DistributedExplain.text(plan);
            assertThat(explained).contains("warning: attempt 1 (" + handle.queryId() + ") lost a worker before any row reached the client and the query ran "
                    + "again as " + handle.queryId() + "-r1 (distributed.retry_policy=QUERY): WORKER_", "warning: worker " + victim.address() + " skipped");
            assertThat(session.coordinatorMetrics().orElseThrow().queriesRetried()).isEqualTo(1);
            assertNothingLeft(session, one, two);
        }
    }

    @Test
    void underNoneTheQueryFailsNamingTheLostWorker() throws Exception {
        try (WorkerProcess one = WorkerProcess.start();
                WorkerProcess victim = WorkerProcess.start();
                TpchCatalog catalog = TpchCatalog.cached(0.01, 256L << 20);
                QuerySession session = session(catalog, List.of(one.address(), victim.address()), RetryPolicy.NONE)) {
            QueryHandle handle = session.execute(TpchQueries.query(3));
            victim.kill();
            long killedAt = System.nanoTime();
            assertThatThrownBy(handle::collect).isInstanceOfSatisfying(QuiverException.class, e -> {
                assertThat(e.errorCode()).isIn(ErrorCode.WORKER_UNREACHABLE, ErrorCode.WORKER_LOST);
                assertThat(e.getMessage()).contains(victim.address().toString());
            });
            assertThat(Duration.ofNanos(System.nanoTime() - killedAt)).as("time from the kill to the failure").isLessThan(Duration.ofSeconds(10));
            assertThat(handle.events()).noneMatch(QueryEvent.QueryRetried.class::isInstance);
            // the stages after the one that could not be sent were never dispatched; every task that was sent ended
            assertThat(DistributedRun.awaitFinalPlan(handle).taskReports()).allSatisfy(report -> assertThat(report.state().isTerminal()).isTrue());
            assertThat(session.coordinatorMetrics().orElseThrow().queriesRetried()).isZero();
            assertNothingLeft(session, one);
        }
    }

    /**
     * A worker killed while its tasks run, in the middle of a scan of SF 1 lineitem (seconds of
     * generating on each worker): the query runs again on the other worker and counts every row.
     */
    @Test
    void underQueryAWorkerKilledMidQueryIsRetriedOnTheOthers() throws Exception {
        try (WorkerProcess survivor = WorkerProcess.start();
                WorkerProcess victim = WorkerProcess.start();
                TpchCatalog large = new TpchCatalog(1.0);
                QuerySession session = QuerySession.builder().catalog(large).targetPartitions(2).workers(List.of(survivor.address(), victim.address()))
                        .set(DistributedSettings.RETRY_POLICY, RetryPolicy.QUERY).build();
                QuiverExecutor executor = new QuiverExecutor("retry-kill-test")) {
            QueryHandle handle = session.execute("SELECT count(*) AS n FROM lineitem");
            CompletableFuture<Void> killed = CompletableFuture.runAsync(() -> {
                DistributedRun.awaitRunningOn(handle, victim.address());
                try {
                    victim.kill();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, executor.asExecutorService());
            QueryResult result = handle.collect();
            killed.get(30, TimeUnit.SECONDS);
            assertThat(result.rows()).containsExactly(List.of(6_001_215L));
            assertThat(handle.events()).filteredOn(QueryEvent.QueryRetried.class::isInstance).singleElement()
                    .isInstanceOfSatisfying(QueryEvent.QueryRetried.class, retried -> assertThat(retried.error()).contains(victim.address().toString()));
            FinalPlan plan = DistributedRun.awaitFinalPlan(handle);
            DistributedRun.assertSucceeded(plan);
            assertThat(plan.taskReports()).isNotEmpty().allMatch(report -> report.worker().equals(survivor.address()));
            assertNothingLeft(session, survivor);
        }
    }

    /** Rows of the query had reached the client when the worker died: running it again would return them twice, so it fails, saying so. */
    @Test
    void underQueryAQueryThatAlreadyReturnedRowsFailsInsteadOfRepeatingThem() throws Exception {
        try (WorkerProcess survivor = WorkerProcess.start();
                WorkerProcess victim = WorkerProcess.start();
                TpchCatalog large = new TpchCatalog(1.0);
                QuerySession session = QuerySession.builder().catalog(large).targetPartitions(2).workers(List.of(survivor.address(), victim.address()))
                        .set(DistributedSettings.RETRY_POLICY, RetryPolicy.QUERY).build()) {
            QueryHandle handle = session.execute("SELECT l_orderkey, l_linenumber FROM lineitem");
            try (BatchStream rows = handle.stream()) {
                VectorSchemaRoot first = rows.next();
                assertThat(first).isNotNull();
                int returned = first.getRowCount();
                first.close();
                assertThat(returned).isPositive();
                DistributedRun.awaitRunningOn(handle, victim.address());
                victim.kill();
                assertThatThrownBy(() -> {
                    VectorSchemaRoot batch;
                    while ((batch = rows.next()) != null) {
                        batch.close();
                    }
                }).isInstanceOfSatisfying(QuiverException.class, e -> {
                    assertThat(e.errorCode()).isIn(ErrorCode.WORKER_LOST, ErrorCode.WORKER_UNREACHABLE, ErrorCode.REMOTE_TASK_FAILED);
                    assertThat(e.getMessage()).contains("rows had reached the client", "so it is not run again", victim.address().toString());
                });
            }
            assertThat(handle.events()).noneMatch(QueryEvent.QueryRetried.class::isInstance);
            DistributedRun.assertAllTasksTerminal(DistributedRun.awaitFinalPlan(handle));
            handle.close();
            assertNothingLeft(session, survivor);
        }
    }

    private static QuerySession session(TpchCatalog catalog, List<WorkerAddress> workers, RetryPolicy policy) {
        return QuerySession.builder().catalog(catalog).targetPartitions(2).workers(workers)
                .set(DistributedSettings.BYTES_PER_PARTITION_FOR_SCANS, 1024L).set(DistributedSettings.RETRY_POLICY, policy).build();
    }

    /** The survivors hold no task and no pool memory, and no final report had to be given up on. */
    private static void assertNothingLeft(QuerySession session, WorkerProcess... survivors) {
        for (WorkerProcess survivor : survivors) {
            assertThat(Eventually.await(survivor::activeTasks, 0, CLEAN_WITHIN)).as("tasks left on %s", survivor.address()).isZero();
            assertThat(Eventually.await(survivor::poolUsedBytes, 0L, CLEAN_WITHIN)).as("pool memory left on %s", survivor.address()).isZero();
        }
        assertThat(session.coordinatorMetrics().orElseThrow().metricsFinalizationTimeouts()).isZero();
    }
}
