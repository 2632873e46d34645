package dev.quiver.server;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.protocol.QuiverVersion;
import dev.quiver.distributed.protocol.WorkerAddress;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.QuiverExecutor;
import dev.quiver.engine.memory.MemoryPool;
import dev.quiver.session.QuerySession;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.flight.FlightServer;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.sql.SqlInfoBuilder;
import org.apache.arrow.flight.sql.impl.FlightSql.SqlSupportedCaseSensitivity;
import org.apache.arrow.flight.sql.impl.FlightSql.SqlSupportedTransaction;
import org.apache.arrow.memory.BufferAllocator;

/**
 * {@code quiver server}: an Arrow Flight SQL endpoint over one {@link QuerySession}, which JDBC
 * (the Arrow Flight SQL JDBC driver), ADBC and {@code quiver sql --server} clients query. Each
 * connection has a session of its own ({@link dev.quiver.session.UserSession}: its settings), over
 * the shared session's tables, views, catalog directory and workers. See docs/server.md.
 *
 * <pre>{@code
 * try (QuerySession session = QuerySession.builder().catalog(catalog).build();
 *      QuiverServer server = QuiverServer.builder(session).port(31337).start()) {
 *     // jdbc:arrow-flight-sql://127.0.0.1:31337?useEncryption=false
 * }
 * }</pre>
 *
 * <p>The server owns its threads, its allocator and its Flight server, not the session: close the
 * server first. {@link #close()} ends every running query.
 */
public final class QuiverServer implements AutoCloseable {
    private final BufferAllocator allocator;
    private final QuiverExecutor executor;
    /** Queries that run at once unless {@link Builder#admission} says otherwise. */
    public static final int DEFAULT_MAX_CONCURRENT = 8;

    private final ClientSessions sessions;
    private final Admission admission;
    private final RunningQueries queries = new RunningQueries();
    private final FlightServer flight;
    private final WorkerAddress address;
    private final boolean tls;
    private boolean closed;

    private QuiverServer(Builder builder) {
        // under the session's root: result batches load into the server's Flight stream by reference
        this.allocator = builder.session.newChildAllocator("server");
        this.executor = new QuiverExecutor("server");
        this.sessions = new ClientSessions(builder.session, builder.idleTimeout);
        MemoryPool pool = builder.session.memoryPool();
        this.admission = new Admission(pool, builder.admission.orElseGet(() -> AdmissionSettings.defaults(DEFAULT_MAX_CONCURRENT, pool.limit())));
        StatementRunner runner = new StatementRunner(allocator, executor, admission, queries);
        QuiverSqlProducer producer = new QuiverSqlProducer(allocator, new CatalogMetadata(builder.session), runner, sqlInfo(), this::closeSession);
        FlightServer server;
        try {
            server = flightServer(builder, producer);
        } catch (IOException | RuntimeException e) {
            executor.close();
            allocator.close();
            throw new QuiverException(ErrorCode.INVALID_CONFIGURATION, "Cannot listen on " + builder.host + ":" + builder.port + ": " + e.getMessage(), e);
        }
        this.flight = server;
        this.address = new WorkerAddress(builder.host, server.getPort());
        this.tls = builder.tls.isPresent();
    }

    /** The Flight server: TLS with the builder's certificate, authentication when users or a token are set. */
    private FlightServer flightServer(Builder builder, QuiverSqlProducer producer) throws IOException {
        Location location = builder.tls.isPresent() ? Location.forGrpcTls(builder.host, builder.port) : Location.forGrpcInsecure(builder.host, builder.port);
        FlightServer.Builder flight = FlightServer.builder(allocator, location, producer)
                .executor(executor.asExecutorService())
                .middleware(SessionMiddleware.KEY, new SessionMiddleware.Factory(sessions));
        if (builder.tls.isPresent()) {
            flight.useTls(builder.tls.get().certificate().toFile(), builder.tls.get().privateKey().toFile());
        }
        if (builder.users.isPresent() || builder.token.isPresent()) {
            flight.headerAuthenticator(new ServerAuthenticator(builder.users, builder.token, builder.idleTimeout));
        }
        FlightServer server = flight.build();
        try {
            server.start();
        } catch (IOException | RuntimeException e) {
            closeQuietly(server);
            throw e;
        }
        return server;
    }

    /** Whether clients must connect with TLS. */
    public boolean usesTls() {
        return tls;
    }

    public static Builder builder(QuerySession session) {
        return new Builder(session);
    }

    /** Where the server listens (the actual port when started with port 0). */
    public WorkerAddress address() {
        return address;
    }

    /** Client sessions the server holds. */
    public int sessionCount() {
        return sessions.size();
    }

    /** Queries registered now (queued or running). */
    public int runningQueries() {
        return queries.size();
    }

    /** The admission limits the server runs with. */
    public AdmissionSettings admission() {
        return admission.settings();
    }

    private void closeSession(ClientSession session) {
        sessions.close(session.id());
        queries.cancelSession(session.id());
    }

    /** Arrow bytes the server holds for result streams in flight. */
    public long allocatedBytes() {
        return allocator.getAllocatedMemory();
    }

    /** Threads of the server's executor running something now (Flight calls and result streams). */
    public int activeThreads() {
        return executor.activeThreads();
    }

    private static SqlInfoBuilder sqlInfo() {
        return new SqlInfoBuilder()
                .withFlightSqlServerName("Quiver")
                .withFlightSqlServerVersion(QuiverVersion.CURRENT)
                .withFlightSqlServerArrowVersion(FlightServer.class.getPackage().getImplementationVersion() == null
                        ? "18.3.0" : FlightServer.class.getPackage().getImplementationVersion())
                .withFlightSqlServerReadOnly(false)
                .withFlightSqlServerSql(true)
                .withFlightSqlServerSubstrait(false)
                .withFlightSqlServerTransaction(SqlSupportedTransaction.SQL_SUPPORTED_TRANSACTION_NONE)
                .withFlightSqlServerCancel(true)
                .withSqlIdentifierQuoteChar("\"")
                .withSqlIdentifierCase(SqlSupportedCaseSensitivity.SQL_CASE_SENSITIVITY_CASE_INSENSITIVE)
                .withSqlQuotedIdentifierCase(SqlSupportedCaseSensitivity.SQL_CASE_SENSITIVITY_CASE_INSENSITIVE)
                .withSqlSchemaTerm("schema")
                .withSqlCatalogTerm("catalog")
                .withSqlDdlCatalog(false)
                .withSqlDdlSchema(false)
                .withSqlDdlTable(true)
                .withSqlTransactionsSupported(false)
                .withSqlCorrelatedSubqueriesSupported(true)
                .withSqlSupportsColumnAliasing(true)
                .withSqlNullPlusNullIsNull(true);
    }

    /** Stops listening, ends the calls in flight (their queries are cancelled) and frees the threads and the allocator. */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        flight.shutdown();
        try {
            if (!flight.awaitTermination(5, TimeUnit.SECONDS)) {
                closeQuietly(flight);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        closeQuietly(flight);
        executor.close();
        allocator.close();
    }

    private static void closeQuietly(FlightServer server) {
        try {
            server.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            // already shutting down; the allocator's close reports what matters
        }
    }

    /** Settings of a server; the session is required. */
    public static final class Builder {
        private final QuerySession session;
        private String host = "127.0.0.1";
        private int port;
        private Duration idleTimeout = Duration.ofHours(8);
        private Optional<AdmissionSettings> admission = Optional.empty();
        private Optional<UsersFile> users = Optional.empty();
        private Optional<String> token = Optional.empty();
        private Optional<TlsFiles> tls = Optional.empty();

        private Builder(QuerySession session) {
            this.session = requireNonNull(session, "session is null");
        }

        /** The address to listen on (default 127.0.0.1; 0.0.0.0 for every interface). */
        public Builder host(String host) {
            this.host = requireNonNull(host, "host is null");
            return this;
        }

        /** The port; 0 (the default) picks a free one. */
        public Builder port(int port) {
            if (port < 0 || port > 65535) {
                throw new QuiverException(ErrorCode.INVALID_CONFIGURATION, "not a port: " + port);
            }
            this.port = port;
            return this;
        }

        /** How long a client session may stay unused before the server forgets it (its settings; default 8 hours). */
        public Builder sessionIdleTimeout(Duration timeout) {
            this.idleTimeout = requireNonNull(timeout, "timeout is null");
            return this;
        }

        /**
         * How many queries run at once and the memory each is granted of the session's pool (default:
         * {@value QuiverServer#DEFAULT_MAX_CONCURRENT} at once, each an equal share, 64 waiting up to a minute).
         */
        public Builder admission(AdmissionSettings settings) {
            this.admission = Optional.of(requireNonNull(settings, "settings is null"));
            return this;
        }

        /** Clients log in with a user and password of {@code file} (basic authentication, then a bearer token). */
        public Builder users(UsersFile file) {
            this.users = Optional.of(requireNonNull(file, "file is null"));
            return this;
        }

        /** Clients may present this bearer token instead (as user {@code token}); at least 16 characters. */
        public Builder token(String staticToken) {
            requireNonNull(staticToken, "staticToken is null");
            if (staticToken.strip().length() < 16) {
                throw new QuiverException(ErrorCode.INVALID_CONFIGURATION, "A server token needs at least 16 characters (e.g. openssl rand -hex 32)");
            }
            this.token = Optional.of(staticToken.strip());
            return this;
        }

        /** TLS with a PEM certificate (chain) and its PEM private key (PKCS#8); clients connect with useEncryption=true. */
        public Builder tls(TlsFiles files) {
            this.tls = Optional.of(requireNonNull(files, "files is null"));
            return this;
        }

        public QuiverServer start() {
            return new QuiverServer(this);
        }
    }
}
