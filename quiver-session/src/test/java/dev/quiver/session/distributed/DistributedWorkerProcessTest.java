package dev.quiver.session.distributed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.distributed.config.DistributedSettings;
import dev.quiver.distributed.coordinator.FinalPlan;
import dev.quiver.distributed.protocol.TaskState;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.QuiverExecutor;
import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.engine.source.tpch.TpchQueries;
import dev.quiver.engine.testing.Eventually;
import dev.quiver.session.QueryHandle;
import dev.quiver.session.QuerySession;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Distributed queries on workers in separate processes ({@link WorkerProcessMain}): the 22 TPC-H
 * queries at SF 0.01 on two of them, and a worker killed in the middle of a query.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DistributedWorkerProcessTest {
    private WorkerProcess first;
    private WorkerProcess second;
    private TpchCatalog catalog;
    private QuerySession session;

    @BeforeAll
    void start() throws Exception {
        first = WorkerProcess.start();
        second = WorkerProcess.start();
        catalog = TpchCatalog.cached(0.01, 256L << 20);
        session = QuerySession.builder().catalog(catalog).targetPartitions(2).workers(List.of(first.address(), second.address()))
                .set(DistributedSettings.BYTES_PER_PARTITION_FOR_SCANS, 1024L).build();
    }

    @AfterAll
    void stop() throws Exception {
        try (WorkerProcess closedLast = first; WorkerProcess closedThird = second; TpchCatalog closedSecond = catalog; QuerySession closedFirst = session) {
            assertThat(session.coordinatorMetrics().orElseThrow().metricsFinalizationTimeouts()).isZero();
            assertThat(Eventually.await(first::activeTasks, 0, Duration.ofSeconds(5))).isZero();
            assertThat(Eventually.await(second::activeTasks, 0, Duration.ofSeconds(5))).isZero();
        }
    }

    static List<Integer> queries() {
        return TpchQueries.NUMBERS;
    }

    @ParameterizedTest(name = "q{0}")
    @MethodSource("queries")
    void matchesAnswerFile(int query) {
        DistributedRun.tpch(session, query);
    }

    /**
     * A worker process killed while its task runs: the query fails within 10 s naming the worker and
     * the stage, and the surviving worker holds no task state afterwards. The scan is of SF 1
     * lineitem, which takes each worker seconds to generate.
     */
    @Test
    void aWorkerKilledMidQueryFailsTheQueryNamingWorkerAndStage() throws Exception {
        try (WorkerProcess victim = WorkerProcess.start();
                TpchCatalog large = new TpchCatalog(1.0);
                QuerySession killing = QuerySession.builder().catalog(large).targetPartitions(2).workers(List.of(first.address(), victim.address())).build();
                QuiverExecutor executor = new QuiverExecutor("kill-test")) {
            QueryHandle handle = killing.execute("SELECT l_returnflag, sum(l_quantity) FROM lineitem GROUP BY l_returnflag");
            long[] killedAt = new long[1];
            CompletableFuture<Void> killed = CompletableFuture.runAsync(() -> {
                DistributedRun.awaitRunningOn(handle, victim.address());
                try {
                    victim.kill();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                killedAt[0] = System.nanoTime();
            }, executor.asExecutorService());
            assertThatThrownBy(handle::collect).isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.getMessage()).contains(victim.address().toString()).containsPattern("stage \\d+"));
            long failedAt = System.nanoTime();
            killed.get(30, TimeUnit.SECONDS);
            assertThat(killedAt[0]).as("the worker was killed while the query ran").isPositive();
            assertThat(Duration.ofNanos(failedAt - killedAt[0])).as("time from the kill to the query's failure").isLessThan(Duration.ofSeconds(10));
            FinalPlan plan = DistributedRun.awaitFinalPlan(handle);
            DistributedRun.assertAllTasksTerminal(plan);
            assertThat(plan.taskReports()).anySatisfy(r -> {
                assertThat(r.worker()).isEqualTo(victim.address());
                assertThat(r.state()).isEqualTo(TaskState.FAILED);
            });
            assertThat(Eventually.await(first::activeTasks, 0, Duration.ofSeconds(5))).as("task state left on the surviving worker").isZero();
            assertThat(killing.coordinatorMetrics().orElseThrow().metricsFinalizationTimeouts()).isZero();
        }
    }

    /**
     * A worker that hangs (SIGSTOP: its TCP connections stay up, so only the control stream's
     * heartbeats can tell) fails the query within 10 s of a 5 s heartbeat timeout, naming it, and the other worker is left clean.
     */
    @Test
    void aHungWorkerIsDetectedByHeartbeats() throws Exception {
        try (WorkerProcess victim = WorkerProcess.start();
                TpchCatalog large = new TpchCatalog(1.0);
                QuerySession hanging = QuerySession.builder().catalog(large).targetPartitions(2).workers(List.of(second.address(), victim.address()))
                        .set(DistributedSettings.HEARTBEAT_TIMEOUT_MS, 5000L).build();
                QuiverExecutor executor = new QuiverExecutor("hang-test")) {
            QueryHandle handle = hanging.execute("SELECT l_returnflag, sum(l_quantity) FROM lineitem GROUP BY l_returnflag");
            long[] frozenAt = new long[1];
            CompletableFuture<Void> frozen = CompletableFuture.runAsync(() -> {
                DistributedRun.awaitRunningOn(handle, victim.address());
                try {
                    victim.freeze();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
                frozenAt[0] = System.nanoTime();
            }, executor.asExecutorService());
            assertThatThrownBy(handle::collect).isInstanceOfSatisfying(QuiverException.class,
                    e -> assertThat(e.getMessage()).contains(victim.address().toString()).containsPattern("stage \\d+"));
            long failedAt = System.nanoTime();
            frozen.get(30, TimeUnit.SECONDS);
            assertThat(Duration.ofNanos(failedAt - frozenAt[0])).as("time from the hang to the query's failure").isLessThan(Duration.ofSeconds(10));
            DistributedRun.assertAllTasksTerminal(DistributedRun.awaitFinalPlan(handle));
            assertThat(Eventually.await(second::activeTasks, 0, Duration.ofSeconds(5))).as("task state left on the other worker").isZero();
            victim.kill();
        }
    }
}
