package dev.quiver.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.session.QuerySession;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * A Quiver server over the TPC-H tables at a scale factor (generated once and cached), on a free
 * port of 127.0.0.1, and JDBC connections to it through the Arrow Flight SQL JDBC driver.
 * {@link #close()} closes the server, then the session, whose close fails if a query leaked memory.
 */
final class ServerFixture implements AutoCloseable {
    /** A query that runs for minutes (3.6 billion rows at SF 0.01) and sends rows at once: a client holds it by not reading. */
    static final String LONG_QUERY = "select a.l_orderkey, b.l_partkey from lineitem a, lineitem b";

    private final TpchCatalog catalog;
    private final QuerySession session;
    private final QuiverServer server;

    private ServerFixture(TpchCatalog catalog, QuerySession session, QuiverServer server) {
        this.catalog = catalog;
        this.session = session;
        this.server = server;
    }

    static ServerFixture tpch(double scaleFactor) {
        return tpch(scaleFactor, builder -> {}, Long.MAX_VALUE);
    }

    static ServerFixture tpch(double scaleFactor, Consumer<QuiverServer.Builder> server) {
        return tpch(scaleFactor, server, Long.MAX_VALUE);
    }

    /** With the server configured by {@code server} and a pool of {@code memoryLimit} bytes. */
    static ServerFixture tpch(double scaleFactor, Consumer<QuiverServer.Builder> server, long memoryLimit) {
        return tpch(scaleFactor, server, memoryLimit, session -> {});
    }

    /** With the session further configured by {@code session} (e.g. local workers). */
    static ServerFixture tpch(double scaleFactor, Consumer<QuiverServer.Builder> server, long memoryLimit, Consumer<QuerySession.Builder> sessionSetup) {
        TpchCatalog catalog = TpchCatalog.cached(scaleFactor, 512L << 20);
        QuerySession.Builder sessionBuilder = QuerySession.builder().catalog(catalog).targetPartitions(2).memoryLimit(memoryLimit);
        sessionSetup.accept(sessionBuilder);
        QuerySession session = sessionBuilder.build();
        QuiverServer.Builder builder = QuiverServer.builder(session);
        server.accept(builder);
        try {
            return new ServerFixture(catalog, session, builder.start());
        } catch (RuntimeException e) {
            session.close();
            catalog.close();
            throw e;
        }
    }

    QuiverServer server() {
        return server;
    }

    QuerySession session() {
        return session;
    }

    String url() {
        return "jdbc:arrow-flight-sql://127.0.0.1:" + server.address().port() + "?useEncryption=false";
    }

    Connection connect() throws SQLException {
        return DriverManager.getConnection(url(), new Properties());
    }

    /** A connection with the URL's parameters {@code parameters} (e.g. {@code useEncryption=true&tlsRootCerts=...}) and {@code properties}. */
    Connection connect(String parameters, Properties properties) throws SQLException {
        return DriverManager.getConnection("jdbc:arrow-flight-sql://127.0.0.1:" + server.address().port() + "?" + parameters, properties);
    }

    /** The rows of SHOW QUERIES, asked on a connection of its own. */
    static List<List<Object>> queries(ServerFixture fixture) {
        try (Connection connection = fixture.connect(); Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SHOW QUERIES")) {
            List<List<Object>> result = new ArrayList<>();
            while (rows.next()) {
                List<Object> row = new ArrayList<>();
                for (int c = 1; c <= rows.getMetaData().getColumnCount(); c++) {
                    row.add(rows.getObject(c));
                }
                result.add(row);
            }
            return result;
        } catch (SQLException e) {
            throw new IllegalStateException("SHOW QUERIES failed", e);
        }
    }

    /**
     * Waits until the server holds nothing for any query — none registered or admitted, no memory
     * reserved in the pool, no Arrow memory, no thread busy — and fails if that does not come
     * (cancellation reaches the server asynchronously: the wait is for that condition, bounded).
     */
    static void awaitIdle(ServerFixture fixture) {
        QuiverServer server = fixture.server();
        await(() -> "the server to let go of every query: " + server.runningQueries() + " queries, " + fixture.session().memoryPool().used()
                + " bytes reserved, " + server.allocatedBytes() + " bytes allocated, " + server.activeThreads() + " threads busy", () -> server.runningQueries() == 0 && fixture.session().memoryPool().used() == 0
                && server.allocatedBytes() == 0 && server.activeThreads() == 0);
        assertThat(server.runningQueries()).isZero();
        assertThat(fixture.session().memoryPool().used()).isZero();
        assertThat(server.allocatedBytes()).isZero();
    }

    static void await(String what, BooleanSupplier condition) {
        await(() -> what, condition);
    }

    static void await(java.util.function.Supplier<String> what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("Timed out waiting for " + what.get());
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    @Override
    public void close() {
        try (TpchCatalog closedLast = catalog; QuerySession closedSecond = session; QuiverServer closedFirst = server) {
            // the server goes first, then the session (which checks for leaks), then the catalog's cache
        }
    }
}
