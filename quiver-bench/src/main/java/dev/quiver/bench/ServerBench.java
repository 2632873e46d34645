package dev.quiver.bench;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.engine.source.tpch.TpchQueries;
import dev.quiver.server.AdmissionSettings;
import dev.quiver.server.QuiverServer;
import dev.quiver.session.QuerySession;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code quiver bench server}: a Quiver server in this process measured through the Arrow Flight
 * SQL JDBC driver over 127.0.0.1: the warm round trip of {@code select 1} (median and 90th
 * percentile of N), then the throughput of C clients, each with its own connection, running the
 * TPC-H queries (all but q15, whose view they would share) one after another for S seconds, in
 * queries per minute, after one warm-up run of each. Single-node, or on local workers.
 */
public final class ServerBench {
    /**
     * @param scaleFactor TPC-H scale factor of the throughput part
     * @param clients concurrent connections of the throughput part (also the server's concurrent queries)
     * @param duration how long the clients run
     * @param roundTrips {@code select 1} executions measured (after as many for warm-up)
     * @param localWorkers 0 for a single-node server
     * @param memoryLimit the server's pool
     */
    public record Options(double scaleFactor, int clients, Duration duration, int roundTrips, int localWorkers, long memoryLimit) {
        public Options {
            requireNonNull(duration, "duration is null");
        }
    }

    /** What one run measured. */
    public record Result(double roundTripMedianMillis, double roundTripP90Millis, long queries, double queriesPerMinute, String loadBefore,
            String loadAfter) {}

    private ServerBench() {}

    public static Result run(Options options, PrintStream out) throws Exception {
        String loadBefore = WindowBench.loadAverage();
        try (TpchCatalog catalog = TpchCatalog.cached(options.scaleFactor(), 2L << 30);
                QuerySession session = session(catalog, options);
                QuiverServer server = QuiverServer.builder(session)
                        .admission(AdmissionSettings.defaults(options.clients(), options.memoryLimit())).start()) {
            String url = "jdbc:arrow-flight-sql://127.0.0.1:" + server.address().port() + "?useEncryption=false";
            out.printf(Locale.ROOT, "Quiver server %s, TPC-H SF %s, %s, %d clients, load average %s%n", server.address(), options.scaleFactor(),
                    options.localWorkers() == 0 ? "single-node" : options.localWorkers() + " local workers", options.clients(), loadBefore);
            double[] trips = roundTrips(url, options.roundTrips());
            out.printf(Locale.ROOT, "select 1 round trip: median %.2f ms, p90 %.2f ms (of %d, warm)%n", trips[0], trips[1], options.roundTrips());
            warmUp(url, options.scaleFactor());
            long queries = throughput(url, options);
            double perMinute = queries / (options.duration().toMillis() / 60_000.0);
            String loadAfter = WindowBench.loadAverage();
            out.printf(Locale.ROOT, "throughput: %d queries in %d s = %.1f queries/minute (load average after: %s)%n", queries,
                    options.duration().toSeconds(), perMinute, loadAfter);
            return new Result(trips[0], trips[1], queries, perMinute, loadBefore, loadAfter);
        }
    }

    private static QuerySession session(TpchCatalog catalog, Options options) {
        QuerySession.Builder builder = QuerySession.builder().catalog(catalog).memoryLimit(options.memoryLimit());
        if (options.localWorkers() > 0) {
            builder.localWorkers(options.localWorkers(), options.memoryLimit());
        }
        return builder.build();
    }

    /** The median and 90th percentile in milliseconds of {@code count} warm executions of {@code select 1}, each read to its end. */
    private static double[] roundTrips(String url, int count) throws SQLException {
        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
            long[] nanos = new long[count];
            for (int i = -count; i < count; i++) {
                long start = System.nanoTime();
                try (ResultSet rows = statement.executeQuery("select 1")) {
                    while (rows.next()) {
                        rows.getInt(1);
                    }
                }
                if (i >= 0) {
                    nanos[i] = System.nanoTime() - start;
                }
            }
            Arrays.sort(nanos);
            return new double[] {nanos[count / 2] / 1e6, nanos[(int) (count * 0.9)] / 1e6};
        }
    }

    /** Runs each query once (not measured): code paths compiled, tables generated into the cache. */
    private static void warmUp(String url, double scaleFactor) throws SQLException {
        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
            for (int query : TpchQueries.NUMBERS) {
                if (TpchQueries.isScript(query)) {
                    continue;
                }
                try (ResultSet rows = statement.executeQuery(TpchQueries.query(query, scaleFactor))) {
                    while (rows.next()) {
                        rows.getObject(1);
                    }
                }
            }
        }
    }

    /** Queries the clients completed in the duration (a query running at the end is not counted). */
    private static long throughput(String url, Options options) throws Exception {
        List<Integer> queries = TpchQueries.NUMBERS.stream().filter(q -> !TpchQueries.isScript(q)).toList();
        AtomicLong done = new AtomicLong();
        long deadline = System.nanoTime() + options.duration().toNanos();
        ExecutorService clients = Executors.newFixedThreadPool(options.clients(), runnable -> new Thread(runnable, "bench-client"));
        try {
            List<Future<?>> running = new ArrayList<>();
            for (int c = 0; c < options.clients(); c++) {
                int client = c;
                running.add(clients.submit(() -> {
                    try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
                        for (int i = client; System.nanoTime() < deadline; i++) {
                            try (ResultSet rows = statement.executeQuery(TpchQueries.query(queries.get(i % queries.size()), options.scaleFactor()))) {
                                while (rows.next()) {
                                    rows.getObject(1);
                                }
                            }
                            if (System.nanoTime() < deadline) {
                                done.incrementAndGet();
                            }
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> future : running) {
                future.get(options.duration().toSeconds() + 600, TimeUnit.SECONDS);
            }
        } finally {
            clients.shutdownNow();
        }
        return done.get();
    }
}
