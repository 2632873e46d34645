package dev.quiver.session.distributed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.quiver.distributed.config.DistributedSettings;
import dev.quiver.distributed.config.RetryPolicy;
import dev.quiver.distributed.coordinator.FinalPlan;
import dev.quiver.distributed.coordinator.spi.QueryEvent;
import dev.quiver.distributed.protocol.TaskReport;
import dev.quiver.distributed.protocol.WorkerAddress;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.QuiverExecutor;
import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.engine.source.tpch.TpchQueries;
import dev.quiver.engine.testing.Eventually;
import dev.quiver.session.QueryHandle;
import dev.quiver.session.QueryResult;
import dev.quiver.session.QuerySession;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Workers on "other hosts": worker processes in their own network namespaces ({@link
 * NetworkNamespaces}), each with its own address, so the coordinator here and the workers talk over
 * veth links and a bridge. The 22 TPC-H queries at SF 0.01 on three of them equal the answer files;
 * a worker whose link is cut mid-query fails the query within 10 s naming it, or, under retry
 * policy QUERY, the query completes on the other; a worker that cannot
 * see a table's files fails naming itself and the file. Needs root (CI has it).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class NamespacedWorkersTest {
    private static final int SHARED_WORKERS = 3;

    private NetworkNamespaces hosts;
    private final List<WorkerProcess> workers = new ArrayList<>();
    private TpchCatalog catalog;
    private QuerySession session;
    private final Set<WorkerAddress> workersThatRanTasks = new HashSet<>();

    @BeforeAll
    void start() throws Exception {
        assumeTrue(NetworkNamespaces.available(), "needs root and ip");
        hosts = NetworkNamespaces.create(SHARED_WORKERS + 3);
        for (int i = 0; i < SHARED_WORKERS; i++) {
            workers.add(WorkerProcess.start(hosts.exec(i), hosts.address(i)));
        }
        catalog = TpchCatalog.cached(0.01, 256L << 20);
        session = QuerySession.builder().catalog(catalog).targetPartitions(2).workers(workers.stream().map(WorkerProcess::address).toList())
                .set(DistributedSettings.BYTES_PER_PARTITION_FOR_SCANS, 1024L).build();
    }

    @AfterAll
    void stop() throws Exception {
        if (hosts == null) {
            return;
        }
        try (NetworkNamespaces removedLast = hosts; TpchCatalog closedSecond = catalog; QuerySession closedFirst = session) {
            for (WorkerProcess worker : workers) {
                assertThat(Eventually.await(worker::activeTasks, 0, Duration.ofSeconds(5))).as("tasks left on %s", worker.address()).isZero();
                worker.close();
            }
        }
    }

    static List<Integer> queries() {
        return TpchQueries.NUMBERS;
    }

    @ParameterizedTest(name = "q{0}")
    @MethodSource("queries")
    void matchesAnswerFile(int query) {
        DistributedRun run = DistributedRun.tpch(session, query);
        run.finalPlan().taskReports().stream().map(TaskReport::worker).forEach(workersThatRanTasks::add);
    }

    @Test
    void everyWorkerRunsTasksAtItsOwnAddress() {
        DistributedRun run = DistributedRun.query(session, "SELECT l_returnflag, count(*) FROM lineitem GROUP BY l_returnflag");
        run.finalPlan().taskReports().stream().map(TaskReport::worker).forEach(workersThatRanTasks::add);
        assertThat(workersThatRanTasks).containsExactlyInAnyOrderElementsOf(workers.stream().map(WorkerProcess::address).toList())
                .allSatisfy(address -> assertThat(address.host()).startsWith("10.213."));
    }

    /**
     * The link of a worker's namespace taken down while its task runs: no RST, no FIN, packets just
     * vanish. With a 5 s heartbeat timeout the query fails within 10 s naming that worker, and the other worker holds no task.
     */
    @Test
    void aCutLinkFailsTheQueryWithinTenSecondsNamingTheWorker() throws Exception {
        int victimHost = SHARED_WORKERS;
        WorkerProcess survivor = workers.get(0);
        try (WorkerProcess victim = WorkerProcess.start(hosts.exec(victimHost), hosts.address(victimHost));
                TpchCatalog large = new TpchCatalog(1.0);
                QuerySession cutting = QuerySession.builder().catalog(large).targetPartitions(2).workers(List.of(survivor.address(), victim.address()))
                        .set(DistributedSettings.HEARTBEAT_TIMEOUT_MS, 5000L).build();
                QuiverExecutor executor = new QuiverExecutor("cut-test")) {
            QueryHandle handle = cutting.execute("SELECT l_returnflag, sum(l_quantity) FROM lineitem GROUP BY l_returnflag");
            CompletableFuture<Long> cut = cutWhileItRuns(handle, victim, victimHost, executor);
            assertThatThrownBy(handle::collect).isInstanceOfSatisfying(QuiverException.class,
                    e -> assertThat(e.getMessage()).contains(victim.address().toString()));
            long failedAt = System.nanoTime();
            long cutAt = cut.get(30, TimeUnit.SECONDS);
            assertThat(Duration.ofNanos(failedAt - cutAt)).as("time from the cut to the query's failure").isLessThan(Duration.ofSeconds(10));
            FinalPlan plan = DistributedRun.awaitFinalPlan(handle);
            DistributedRun.assertAllTasksTerminal(plan);
            assertThat(Eventually.await(survivor::activeTasks, 0, Duration.ofSeconds(5))).as("task state left on the surviving worker").isZero();
            victim.kill();
        }
    }

    /**
     * The same cut under {@code distributed.retry_policy = QUERY}: no row had reached the client, so
     * the query is planned again on the workers that answer (the cut one does not, within the
     * worker-info timeout) and counts every row of SF 1 lineitem on the survivor.
     */
    @Test
    void aCutLinkUnderRetryQueryCompletesOnTheOtherWorker() throws Exception {
        int victimHost = SHARED_WORKERS + 2;
        WorkerProcess survivor = workers.get(1);
        try (WorkerProcess victim = WorkerProcess.start(hosts.exec(victimHost), hosts.address(victimHost));
                TpchCatalog large = new TpchCatalog(1.0);
                QuerySession retrying = QuerySession.builder().catalog(large).targetPartitions(2).workers(List.of(survivor.address(), victim.address()))
                        .set(DistributedSettings.RETRY_POLICY, RetryPolicy.QUERY).set(DistributedSettings.WORKER_INFO_TIMEOUT_MS, 2_000L).build();
                QuiverExecutor executor = new QuiverExecutor("cut-retry-test")) {
            QueryHandle handle = retrying.execute("SELECT count(*) AS n FROM lineitem");
            CompletableFuture<Long> cut = cutWhileItRuns(handle, victim, victimHost, executor);
            QueryResult result = handle.collect();
            cut.get(30, TimeUnit.SECONDS);
            assertThat(result.rows()).containsExactly(List.of(6_001_215L));
            assertThat(handle.events()).filteredOn(QueryEvent.QueryRetried.class::isInstance).singleElement()
                    .isInstanceOfSatisfying(QueryEvent.QueryRetried.class, retried -> assertThat(retried.error()).contains(victim.address().toString()));
            FinalPlan plan = DistributedRun.awaitFinalPlan(handle);
            DistributedRun.assertSucceeded(plan);
            assertThat(plan.taskReports()).isNotEmpty().allMatch(report -> report.worker().equals(survivor.address()));
            assertThat(Eventually.await(survivor::activeTasks, 0, Duration.ofSeconds(5))).as("task state left on the surviving worker").isZero();
            victim.kill();
        }
    }

    /**
     * A worker whose host does not have a table's files (an empty file system mounted over their
     * directory, in the worker's own mount namespace): the task fails naming the worker and the file.
     */
    @Test
    void aWorkerThatCannotReadTheFilesNamesItselfAndThePath(@TempDir Path dir) throws Exception {
        Path data = dir.resolve("data");
        Files.createDirectories(data);
        Path file = data.resolve("nation.parquet");
        try (QuerySession local = QuerySession.builder().catalog(catalog).build()) {
            local.execute("COPY (SELECT * FROM nation) TO '" + file + "' (FORMAT PARQUET)").collect();
        }
        int blindHost = SHARED_WORKERS + 1;
        List<String> hidingTheData = new ArrayList<>(hosts.exec(blindHost));
        hidingTheData.addAll(List.of("sh", "-c", "mount -t tmpfs tmpfs \"$0\" && exec \"$@\"", data.toString()));
        try (WorkerProcess blind = WorkerProcess.start(hidingTheData, hosts.address(blindHost));
                QuerySession remote = QuerySession.builder().catalog(catalog).targetPartitions(2).workers(List.of(blind.address())).build()) {
            assertThatThrownBy(() -> remote.execute("SELECT count(*) FROM read_parquet('" + file + "')").collect())
                    .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.getMessage()).contains(blind.address().toString()).contains(file.toString()));
            assertThat(Eventually.await(blind::activeTasks, 0, Duration.ofSeconds(5))).isZero();
        }
    }

    /** Cuts {@code host}'s link once a task of the query runs on {@code victim}; completes with the time of the cut. */
    private CompletableFuture<Long> cutWhileItRuns(QueryHandle handle, WorkerProcess victim, int host, QuiverExecutor executor) {
        return CompletableFuture.supplyAsync(() -> {
            DistributedRun.awaitRunningOn(handle, victim.address());
            try {
                hosts.cut(host);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            return System.nanoTime();
        }, executor.asExecutorService());
    }
}
