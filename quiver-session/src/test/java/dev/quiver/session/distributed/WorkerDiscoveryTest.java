package dev.quiver.session.distributed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.distributed.config.DistributedSettings;
import dev.quiver.distributed.coordinator.discovery.WorkerResolvers;
import dev.quiver.distributed.coordinator.spi.QueryEvent;
import dev.quiver.distributed.protocol.WorkerAddress;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.WarningCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.engine.source.tpch.TpchQueries;
import dev.quiver.session.ChildOutput;
import dev.quiver.session.JavaCommand;
import dev.quiver.session.QueryResult;
import dev.quiver.session.QuerySession;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.LinkedHashSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Worker discovery with real worker processes ({@link WorkerProcessMain}): a DNS name whose
 * addresses change between queries (the coordinator in a process of its own, whose JVM reads names
 * from a hosts file: {@code -Djdk.net.hosts.file}, its name cache off), a file of workers rewritten between
 * queries, and a listed worker that does not answer (skipped with a warning, or failing the query).
 * Every result is checked against its TPC-H answer file.
 */
class WorkerDiscoveryTest {
    private static final String NAME = "quiver-workers";

    @TempDir
    Path dir;

    @Test
    void aDnsNameFollowsWorkersJoiningAndLeavingBetweenQueries() throws Exception {
        int port = freePort();
        Path hosts = dir.resolve("hosts");
        writeAtomically(hosts, hostsFile("127.0.0.1", "127.0.0.2"));
        try (WorkerProcess one = WorkerProcess.start("127.0.0.1", port);
                WorkerProcess two = WorkerProcess.start("127.0.0.2", port);
                WorkerProcess three = WorkerProcess.start("127.0.0.3", port);
                Coordinator coordinator = Coordinator.start(hosts, "dns:" + NAME + ":" + port)) {
            String w1 = one.address().toString();
            String w2 = two.address().toString();
            String w3 = three.address().toString();
            assertThat(coordinator.run(1)).isEqualTo("q1 ok workers=[" + w1 + ", " + w2 + "] skipped=[]");

            writeAtomically(hosts, hostsFile("127.0.0.1", "127.0.0.2", "127.0.0.3"));
            assertThat(coordinator.run(3)).as("a worker joined").isEqualTo("q3 ok workers=[" + w1 + ", " + w2 + ", " + w3 + "] skipped=[]");

            writeAtomically(hosts, hostsFile("127.0.0.2", "127.0.0.3"));
            assertThat(coordinator.run(5)).as("a worker left").isEqualTo("q5 ok workers=[" + w2 + ", " + w3 + "] skipped=[]");

            two.kill();
            assertThat(coordinator.run(6)).as("a listed worker is dead").isEqualTo("q6 ok workers=[" + w3 + "] skipped=[" + w2 + "]");

            writeAtomically(hosts, "");
            assertThat(coordinator.run(1)).as("the name is gone").startsWith("q1 error: WORKER_UNREACHABLE: ").contains(NAME, "does not resolve");

            writeAtomically(hosts, hostsFile("127.0.0.1"));
            assertThat(coordinator.run(1)).as("back").isEqualTo("q1 ok workers=[" + w1 + "] skipped=[]");
        }
    }

    @Test
    void aWorkerFileIsReadAgainBeforeEveryQuery() throws Exception {
        Path file = dir.resolve("workers.txt");
        try (WorkerProcess one = WorkerProcess.start();
                WorkerProcess two = WorkerProcess.start();
                TpchCatalog catalog = TpchCatalog.cached(0.01, 256L << 20)) {
            writeAtomically(file, "# the pool\n" + one.address() + "\n");
            try (QuerySession session = QuerySession.builder().catalog(catalog).targetPartitions(2)
                    .workers(WorkerResolvers.parse(List.of("file:" + file))).set(DistributedSettings.BYTES_PER_PARTITION_FOR_SCANS, 1024L).build()) {
                assertThat(session.workerSource()).contains("file:" + file);
                assertThat(dispatchedTo(DistributedRun.tpch(session, 3))).containsExactly(one.address());

                writeAtomically(file, one.address() + "\n" + two.address() + "\n");
                assertThat(dispatchedTo(DistributedRun.tpch(session, 3))).containsExactlyInAnyOrder(one.address(), two.address());

                writeAtomically(file, two.address() + "\n");
                assertThat(dispatchedTo(DistributedRun.tpch(session, 10))).containsExactly(two.address());

                writeAtomically(file, "\n");
                assertThatThrownBy(() -> session.execute(TpchQueries.query(1)).close()).isInstanceOfSatisfying(QuiverException.class, e -> {
                    assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_CONFIGURATION);
                    assertThat(e.getMessage()).contains("file:" + file, "names none");
                });
            }
            assertThat(one.activeTasks()).isZero();
            assertThat(two.activeTasks()).isZero();
        }
    }

    @Test
    void anUnreachableListedWorkerIsSkippedWithAWarningOrFailsTheQuery() throws Exception {
        WorkerAddress dead = new WorkerAddress("127.0.0.1", freePort());
        try (WorkerProcess alive = WorkerProcess.start();
                TpchCatalog catalog = TpchCatalog.cached(0.01, 256L << 20);
                QuerySession session = QuerySession.builder().catalog(catalog).targetPartitions(2).workers(List.of(dead, alive.address()))
                        .set(DistributedSettings.BYTES_PER_PARTITION_FOR_SCANS, 1024L).build()) {
            DistributedRun run = DistributedRun.tpch(session, 1);
            assertThat(dispatchedTo(run)).containsExactly(alive.address());
            assertThat(run.events()).filteredOn(QueryEvent.WorkerSkipped.class::isInstance).singleElement()
                    .isInstanceOfSatisfying(QueryEvent.WorkerSkipped.class, skipped -> {
                        assertThat(skipped.worker()).isEqualTo(dead);
                        assertThat(skipped.reason()).contains(dead.toString(), "unreachable");
                    });
            assertThat(run.finalPlan().warnings()).singleElement().asString().startsWith("worker " + dead + " skipped");
            assertThat(run.result().warnings()).singleElement().satisfies(warning -> {
                assertThat(warning.code()).isEqualTo(WarningCode.WORKER_SKIPPED);
                assertThat(warning.message()).startsWith("worker " + dead + " skipped (distributed.unreachable_workers=SKIP): ");
            });
            QueryResult explained = session.execute("EXPLAIN ANALYZE " + TpchQueries.query(6)).collect();
            assertThat(explained.rows().get(0).get(0).toString()).contains("warning: worker " + dead + " skipped (distributed.unreachable_workers=SKIP)");

            session.execute("SET distributed.unreachable_workers = 'FAIL'").close();
            assertThatThrownBy(() -> session.execute(TpchQueries.query(1)).collect()).isInstanceOfSatisfying(QuiverException.class, e -> {
                assertThat(e.errorCode()).isEqualTo(ErrorCode.WORKER_UNREACHABLE);
                assertThat(e.getMessage()).contains(dead.toString());
            });
            assertThat(alive.activeTasks()).isZero();
        }
    }


    /** The workers the run's tasks were dispatched to. */
    private static Set<WorkerAddress> dispatchedTo(DistributedRun run) {
        return run.events().stream().filter(QueryEvent.StageDispatched.class::isInstance).map(QueryEvent.StageDispatched.class::cast)
                .flatMap(dispatched -> dispatched.taskWorkers().stream()).collect(Collectors.toCollection(LinkedHashSet::new));
    }

    private static String hostsFile(String... addresses) {
        return Arrays.stream(addresses).map(address -> address + " " + NAME + "\n").collect(Collectors.joining());
    }

    private static void writeAtomically(Path file, String text) throws IOException {
        Path next = file.resolveSibling(file.getFileName() + ".next");
        Files.writeString(next, text, StandardCharsets.UTF_8);
        Files.move(next, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return socket.getLocalPort();
        }
    }

    /** A {@link DiscoveryCoordinatorMain} process reading names from {@code hosts}. */
    private static final class Coordinator implements AutoCloseable {
        private final Process process;
        private final BufferedReader stdout;
        private final PrintStream stdin;
        private final Path log;

        private Coordinator(Process process, Path log) throws IOException {
            this.process = process;
            this.log = log;
            this.stdout = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            this.stdin = new PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8);
            ChildOutput.awaitLine(stdout, DiscoveryCoordinatorMain.READY::equals, log, "coordinator process before it was ready");
        }

        static Coordinator start(Path hosts, String workers) throws IOException {
            Path log = Files.createTempFile("quiver-coordinator-", ".log");
            // test configuration of the child JVM, not library code: names from the hosts file, and no caching of answers
            // (the JDK caches a name that does not resolve for 10 s, a security property, java.security's default)
            Path security = hosts.resolveSibling("no-dns-cache.security");
            Files.writeString(security, "networkaddress.cache.ttl=0\nnetworkaddress.cache.negative.ttl=0\n", StandardCharsets.UTF_8);
            List<String> command = JavaCommand.of(List.of("-Djdk.net.hosts.file=" + hosts, "-Djava.security.properties=" + security),
                    DiscoveryCoordinatorMain.class, workers);
            Process process = new ProcessBuilder(command).redirectError(log.toFile()).start();
            try {
                return new Coordinator(process, log);
            } catch (IOException | RuntimeException e) {
                process.destroyForcibly();
                throw e;
            }
        }

        /** Runs TPC-H query {@code number}; what the coordinator said of it, after {@code RESULT }. */
        String run(int number) throws IOException {
            stdin.println(number);
            String line;
            while ((line = stdout.readLine()) != null) {
                if (line.startsWith(DiscoveryCoordinatorMain.RESULT)) {
                    return line.substring(DiscoveryCoordinatorMain.RESULT.length());
                }
            }
            throw new IllegalStateException("the coordinator process ended; its log: " + Files.readString(log));
        }

        @Override
        public void close() throws Exception {
            stdin.close();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
            Files.deleteIfExists(log);
        }
    }
}
