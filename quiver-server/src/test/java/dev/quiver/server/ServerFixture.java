package dev.quiver.server;

import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.session.QuerySession;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

/**
 * A Quiver server over the TPC-H tables at a scale factor (generated once and cached), on a free
 * port of 127.0.0.1, and JDBC connections to it through the Arrow Flight SQL JDBC driver.
 * {@link #close()} closes the server, then the session, whose close fails if a query leaked memory.
 */
final class ServerFixture implements AutoCloseable {
    private final TpchCatalog catalog;
    private final QuerySession session;
    private final QuiverServer server;

    private ServerFixture(TpchCatalog catalog, QuerySession session, QuiverServer server) {
        this.catalog = catalog;
        this.session = session;
        this.server = server;
    }

    static ServerFixture tpch(double scaleFactor) {
        TpchCatalog catalog = TpchCatalog.cached(scaleFactor, 512L << 20);
        QuerySession session = QuerySession.builder().catalog(catalog).targetPartitions(2).build();
        return new ServerFixture(catalog, session, QuiverServer.builder(session).start());
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

    @Override
    public void close() {
        try (TpchCatalog closedLast = catalog; QuerySession closedSecond = session; QuiverServer closedFirst = server) {
            // the server goes first, then the session (which checks for leaks), then the catalog's cache
        }
    }
}
