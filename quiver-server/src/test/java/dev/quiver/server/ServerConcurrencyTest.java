package dev.quiver.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.engine.source.tpch.TpchQueries;
import dev.quiver.session.tpch.AnswerFile;
import dev.quiver.session.tpch.ResultComparator;
import io.grpc.ManagedChannel;
import io.grpc.netty.NettyChannelBuilder;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import dev.quiver.distributed.worker.LocalCluster;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightGrpcUtils;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.sql.FlightSqlClient;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;

/**
 * Many clients at once: 8 JDBC connections run TPC-H queries (SF 0.01, every one but q15, whose
 * view the clients would share) for a bounded time, {@value #SECONDS} s, through a server that runs
 * at most 4 at once (so that queries also queue), every result against its answer file; meanwhile
 * one more client starts a long query and disconnects in the middle of it. Afterwards nothing is
 * left: no queries registered or admitted, no memory reserved in the server's pool, no Arrow memory
 * held, no server threads busy.
 */
class ServerConcurrencyTest {
    private static final int CLIENTS = 8;
    /** How long the clients run: bounded, for CI's time (the 60 s is what the benchmark does). */
    private static final int SECONDS = 15;
    private static final int DISTRIBUTED_SECONDS = 8;

    @Test
    void eightClientsGetCorrectResultsAndLeaveNothingBehind() throws Exception {
        try (ServerFixture fixture = ServerFixture.tpch(0.01, builder -> builder.admission(new AdmissionSettings(4, 64, Duration.ofMinutes(2), 256L << 20)))) {
            runClients(fixture, CLIENTS, SECONDS);
            ServerFixture.awaitIdle(fixture);
        }
    }

    /** The same on 2 local workers, 4 clients for {@value #DISTRIBUTED_SECONDS} s: afterwards the workers hold no task and no memory either. */
    @Test
    void clientsOfADistributedServerLeaveNoTaskOnTheWorkers() throws Exception {
        try (ServerFixture fixture = ServerFixture.tpch(0.01, builder -> builder.admission(new AdmissionSettings(4, 64, Duration.ofMinutes(2), 256L << 20)),
                1L << 30, session -> session.localWorkers(2, 512L << 20))) {
            runClients(fixture, 4, DISTRIBUTED_SECONDS);
            ServerFixture.awaitIdle(fixture);
            LocalCluster cluster = fixture.session().localCluster().orElseThrow();
            ServerFixture.await(() -> "the workers to let go of every task: " + cluster.activeTasks() + " tasks", () -> cluster.activeTasks() == 0
                    && cluster.workers().stream().allMatch(worker -> worker.poolUsedBytes() == 0 && worker.allocatedBytes() == 0));
        }
    }

    private static void runClients(ServerFixture fixture, int clientCount, int seconds) throws Exception {
        Map<Integer, AnswerFile> answers = new ConcurrentHashMap<>();
        List<Integer> queries = TpchQueries.NUMBERS.stream().filter(q -> !TpchQueries.isScript(q)).toList();
        queries.forEach(q -> answers.put(q, AnswerFile.parse(TpchQueries.answer(q))));
        {
            ExecutorService clients = Executors.newFixedThreadPool(clientCount + 1, runnable -> new Thread(runnable, "jdbc-client"));
            AtomicInteger ran = new AtomicInteger();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            try {
                List<Future<?>> running = new ArrayList<>();
                for (int c = 0; c < clientCount; c++) {
                    int client = c;
                    running.add(clients.submit(() -> {
                        try (Connection connection = fixture.connect()) {
                            for (int i = client; System.nanoTime() < deadline; i++) {
                                int query = queries.get(i % queries.size());
                                JdbcResults results = JdbcTpchTest.run(connection, TpchQueries.query(query));
                                ResultComparator.assertMatches("q" + query + " of client " + client, results.schema(), results.rows(),
                                        answers.get(query).rows());
                                ran.incrementAndGet();
                            }
                        }
                        return null;
                    }));
                }
                running.add(clients.submit(() -> {
                    disconnectMidQuery(fixture);
                    return null;
                }));
                for (Future<?> future : running) {
                    future.get(seconds + 240, TimeUnit.SECONDS);
                }
            } finally {
                clients.shutdownNow();
            }
            assertThat(ran.get()).isGreaterThanOrEqualTo(clientCount);
        }
    }

    /**
     * A client killed in the middle of a query: a Flight SQL client starts the long query, reads its
     * first batch, and its connection is shut down under the open stream, as the death of its process
     * would (the JDBC driver cannot do this: its close cancels the stream politely).
     */
    private static void disconnectMidQuery(ServerFixture fixture) throws Exception {
        ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", fixture.server().address().port()).usePlaintext().build();
        BufferAllocator allocator = new RootAllocator();
        FlightClient client = FlightGrpcUtils.createFlightClient(allocator, channel);
        FlightSqlClient sql = new FlightSqlClient(client);
        FlightInfo info = sql.execute(ServerFixture.LONG_QUERY);
        FlightStream stream = sql.getStream(info.getEndpoints().get(0).getTicket());
        assertThat(stream.next()).isTrue();
        ServerFixture.await("the long query to run", () -> ServerFixture.queries(fixture).stream().anyMatch(row -> row.get(2).equals("RUNNING")));
        channel.shutdownNow();
        // what the dead client held dies with it; here its allocator is dropped without a leak check
        try {
            stream.close();
            client.close();
        } catch (Exception e) {
            // a stream on a shut channel fails to close cleanly
        }
    }
}
