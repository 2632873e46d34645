package dev.quiver.session.distributed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.distributed.config.DistributedSettings;
import dev.quiver.distributed.coordinator.FinalPlan;
import dev.quiver.distributed.coordinator.spi.QueryEvent;
import dev.quiver.distributed.protocol.QuiverVersion;
import dev.quiver.distributed.protocol.TaskState;
import dev.quiver.distributed.protocol.WorkerAddress;
import dev.quiver.distributed.worker.LocalCluster;
import dev.quiver.distributed.worker.WorkerServer;
import dev.quiver.engine.config.EngineSettings;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.QuiverExecutor;
import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.engine.testing.Eventually;
import dev.quiver.session.QueryHandle;
import dev.quiver.session.QuerySession;
import dev.quiver.session.SqlPlanCodec;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;

/** Bad workers and cancellation, each against its own small cluster. */
class DistributedFaultTest {
    @Test
    void aWorkerAddressNobodyListensOnFailsWithinSecondsNamingIt() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        WorkerAddress nobody = new WorkerAddress("127.0.0.1", port);
        try (TpchCatalog catalog = new TpchCatalog(0.01);
                QuerySession session = QuerySession.builder().catalog(catalog).workers(List.of(nobody)).build()) {
            long start = System.nanoTime();
            assertThatThrownBy(() -> session.execute("SELECT count(*) FROM nation").collect()).isInstanceOfSatisfying(QuiverException.class, e -> {
                assertThat(e.errorCode()).isEqualTo(ErrorCode.WORKER_UNREACHABLE);
                assertThat(e.getMessage()).contains(nobody.toString());
            });
            assertThat(Duration.ofNanos(System.nanoTime() - start)).as("time to report the unreachable worker").isLessThan(Duration.ofSeconds(15));
        }
    }

    /**
     * A listening socket that never speaks Flight is a worker that never answers: the query fails at
     * the deadline {@code SET} gave, and the error says how to raise it.
     */
    @Test
    void aWorkerThatNeverAnswersFailsAtTheDeadlineTheSessionSet() throws IOException {
        try (ServerSocket silent = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress());
                TpchCatalog catalog = new TpchCatalog(0.01);
                QuerySession session = QuerySession.builder().catalog(catalog).workers(List.of(new WorkerAddress("127.0.0.1", silent.getLocalPort())))
                        .build()) {
            session.execute("SET distributed.worker_info_timeout_ms = 1500").collect();
            assertThatThrownBy(() -> session.execute("SELECT count(*) FROM nation").collect()).isInstanceOfSatisfying(QuiverException.class, e -> {
                assertThat(e.errorCode()).isEqualTo(ErrorCode.WORKER_UNREACHABLE);
                assertThat(e.getMessage()).contains("worker 127.0.0.1:" + silent.getLocalPort() + " did not answer the info call within "
                        + "distributed.worker_info_timeout_ms=1500 ms", "SET distributed.worker_info_timeout_ms = 3000");
            });
        }
    }

    @Test
    void aWorkerOfAnotherVersionIsRefused() {
        try (WorkerServer other = WorkerServer.builder().name("worker-old").version("0.0.1-other").codec(SqlPlanCodec.builder().build()).start();
                TpchCatalog catalog = new TpchCatalog(0.01);
                QuerySession session = QuerySession.builder().catalog(catalog).workers(List.of(other.address())).build()) {
            assertThatThrownBy(() -> session.execute("SELECT count(*) FROM nation").collect()).isInstanceOfSatisfying(QuiverException.class, e -> {
                assertThat(e.errorCode()).isEqualTo(ErrorCode.WORKER_VERSION_MISMATCH);
                assertThat(e.getMessage()).contains(other.address().toString(), "0.0.1-other", QuiverVersion.CURRENT);
            });
            assertThat(other.activeTasks()).isZero();
        }
    }

    /** A cancel from another thread while the client waits for the first row (the CLI's Ctrl-C) stops the query promptly. */
    @Test
    void aCancelWhileTheClientWaitsStopsTheQuery() throws Exception {
        try (TpchCatalog catalog = new TpchCatalog(1.0);
                QuerySession session = QuerySession.builder().catalog(catalog).targetPartitions(2).localWorkers(2).build();
                QuiverExecutor executor = new QuiverExecutor("cancel-test")) {
            LocalCluster cluster = session.localCluster().orElseThrow();
            QueryHandle handle = session.execute("SELECT l_returnflag, sum(l_quantity) FROM lineitem GROUP BY l_returnflag");
            CompletableFuture<Void> canceller = CompletableFuture.runAsync(() -> {
                Eventually.awaitUntil(handle::events, events -> events.stream()
                        .anyMatch(e -> e instanceof QueryEvent.TaskStateChanged changed && changed.state() == TaskState.RUNNING), Duration.ofSeconds(60));
                handle.cancel();
            }, executor.asExecutorService());
            try (handle) {
                assertThatThrownBy(handle::collect).isInstanceOfSatisfying(QuiverException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.QUERY_CANCELLED));
            }
            canceller.get(30, TimeUnit.SECONDS);
            FinalPlan plan = DistributedRun.awaitFinalPlan(handle);
            assertThat(plan.taskReports()).isNotEmpty()
                    .allSatisfy(report -> assertThat(report.state()).isIn(TaskState.CANCELLED, TaskState.SKIPPED));
            assertThat(Eventually.await(cluster::activeTasks, 0, Duration.ofSeconds(5))).isZero();
            assertThat(Eventually.await(cluster::poolUsedBytes, 0L, Duration.ofSeconds(5))).as("memory reserved on the workers").isZero();
        }
    }

    /**
     * Each local worker has its own pool: a final aggregate that outgrows it fails the query with the
     * worker's error, naming worker and stage (spilling disabled: spilling would let it complete).
     */
    @Test
    void aWorkersMemoryLimitStopsATaskThatOutgrowsIt() {
        try (TpchCatalog catalog = TpchCatalog.cached(0.01, 256L << 20);
                QuerySession session = QuerySession.builder().catalog(catalog).targetPartitions(2).localWorkers(2, 64L << 10)
                        .set(DistributedSettings.BYTES_PER_PARTITION_FOR_SCANS, 1024L).set(EngineSettings.SPILL_ENABLED, false).build()) {
            LocalCluster cluster = session.localCluster().orElseThrow();
            assertThat(cluster.workers()).allSatisfy(worker -> assertThat(worker.memoryPool().limit()).isEqualTo(64L << 10));
            QueryHandle handle = session.execute("SELECT l_orderkey, count(*) FROM lineitem GROUP BY l_orderkey");
            assertThatThrownBy(handle::collect).isInstanceOfSatisfying(QuiverException.class, e -> {
                assertThat(e.errorCode()).as(e.getMessage()).isEqualTo(ErrorCode.EXCEEDED_MEMORY_LIMIT);
                assertThat(e.getMessage()).containsPattern("stage \\d+").contains("127.0.0.1:");
            });
            DistributedRun.assertAllTasksTerminal(DistributedRun.awaitFinalPlan(handle));
            assertThat(Eventually.await(cluster::activeTasks, 0, Duration.ofSeconds(5))).isZero();
            assertThat(Eventually.await(cluster::poolUsedBytes, 0L, Duration.ofSeconds(5))).as("memory reserved on the workers").isZero();
            // the session stays usable: a query within the limit runs
            assertThat(session.executeScript("SELECT count(*) FROM nation").rows()).containsExactly(List.of(25L));
        }
    }

    /** SF 1 lineitem takes seconds to generate, so every scan task still runs when the query is cancelled after its first batch. */
    @Test
    void aCancelledQueryEndsEveryTaskCancelledOrSkippedAndReturnsAllMemory() throws Exception {
        try (TpchCatalog catalog = new TpchCatalog(1.0);
                QuerySession session = QuerySession.builder().catalog(catalog).targetPartitions(2).localWorkers(2).build()) {
            LocalCluster cluster = session.localCluster().orElseThrow();
            QueryHandle handle = session.execute("SELECT l_orderkey, l_comment FROM lineitem");
            try (handle; BatchStream results = handle.stream()) {
                VectorSchemaRoot first = results.next();
                assertThat(first).isNotNull();
                first.close();
                handle.cancel();
                assertThatThrownBy(() -> {
                    VectorSchemaRoot batch;
                    while ((batch = results.next()) != null) {
                        batch.close();
                    }
                }).isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.QUERY_CANCELLED));
            }
            FinalPlan plan = DistributedRun.awaitFinalPlan(handle);
            DistributedRun.assertAllTasksTerminal(plan);
            assertThat(plan.taskReports()).isNotEmpty()
                    .allSatisfy(report -> assertThat(report.state()).isIn(TaskState.CANCELLED, TaskState.SKIPPED));
            assertThat(Eventually.await(cluster::activeTasks, 0, Duration.ofSeconds(5))).isZero();
            assertThat(Eventually.await(cluster::poolUsedBytes, 0L, Duration.ofSeconds(5))).as("memory reserved on the workers").isZero();
            assertThat(session.memoryPool().used()).isZero();
            assertThat(session.coordinatorMetrics().orElseThrow().metricsFinalizationTimeouts()).isZero();
        }
    }
}
