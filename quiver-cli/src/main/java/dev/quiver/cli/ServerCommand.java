package dev.quiver.cli;

import dev.quiver.engine.memory.ByteSize;
import dev.quiver.engine.source.files.TpchFiles;
import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.engine.spi.Catalog;
import dev.quiver.server.AdmissionSettings;
import dev.quiver.server.QuiverServer;
import dev.quiver.server.TlsFiles;
import dev.quiver.server.UsersFile;
import dev.quiver.session.QuerySession;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code quiver server}: an Arrow Flight SQL server (JDBC, ADBC, {@code quiver sql --server}) over
 * one session, until the process is told to stop (SIGTERM or Ctrl-C). See docs/server.md.
 */
@Command(
        name = "server",
        mixinStandardHelpOptions = true,
        description = {
            "Starts a Quiver server: Arrow Flight SQL on HOST:PORT, which the Arrow Flight SQL JDBC driver "
                    + "(jdbc:arrow-flight-sql://HOST:PORT?useEncryption=false), ADBC and quiver sql --server query. "
                    + "Each connection has its own settings (SET); tables and views (CREATE ...) are shared. "
                    + "Stops cleanly on SIGTERM or Ctrl-C.",
        },
        footer = {"", "Examples:", "  quiver server --tpch 0.1 --port 31337",
            "  quiver server --catalog /var/lib/quiver --local-workers 2 --host 0.0.0.0"})
final class ServerCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Mixin
    private EngineOptions engine;

    @Option(names = "--host", paramLabel = "HOST", defaultValue = "127.0.0.1",
            description = "Address to listen on (default: ${DEFAULT-VALUE}; 0.0.0.0 for every interface).")
    private String host;

    @Option(names = "--port", paramLabel = "PORT", defaultValue = "31337",
            description = "Port to listen on; 0 picks a free one (default: ${DEFAULT-VALUE}).")
    private int port;

    @Option(names = "--tpch", paramLabel = "SF",
            description = "Serve the TPC-H tables (lineitem, orders, ...) generated at scale factor SF, e.g. 0.01 or 1.")
    private Double tpchScaleFactor;

    @Option(names = "--tpch-dir", paramLabel = "DIR", description = "Serve the eight TPC-H tables from DIR (as written by quiver tpch-gen).")
    private Path tpchDir;

    @Option(names = "--max-concurrent-queries", paramLabel = "N", defaultValue = "8",
            description = "Queries that run at once; more wait in the queue (default: ${DEFAULT-VALUE}).")
    private int maxConcurrent;

    @Option(names = "--max-queued-queries", paramLabel = "N", defaultValue = "64",
            description = "Queries that may wait to run; one more is refused with QUERY_QUEUE_FULL (default: ${DEFAULT-VALUE}).")
    private int maxQueued;

    @Option(names = "--queue-timeout", paramLabel = "SECONDS", defaultValue = "60",
            description = "How long a query waits to run before it fails with QUERY_QUEUE_TIMEOUT (default: ${DEFAULT-VALUE}).")
    private long queueTimeoutSeconds;

    @Option(names = "--query-memory", paramLabel = "SIZE", converter = EngineOptions.SizeConverter.class,
            description = "Memory each query is granted of --memory-limit while it runs (default: the limit divided by --max-concurrent-queries).")
    private Long queryMemory;

    @Option(names = "--users", paramLabel = "FILE",
            description = "Require a user and password from FILE (name:salted hash lines, written by quiver passwd).")
    private Path users;

    @Option(names = "--token-file", paramLabel = "FILE",
            description = "Also accept the bearer token in FILE (16 characters or more), e.g. for tools; alone, it is the only way in.")
    private Path tokenFile;

    @Option(names = "--tls-cert", paramLabel = "FILE", description = "Serve TLS with this PEM certificate (chain); needs --tls-key.")
    private Path tlsCert;

    @Option(names = "--tls-key", paramLabel = "FILE", description = "The PEM private key (PKCS#8) of --tls-cert.")
    private Path tlsKey;

    @Override
    public Integer call() throws InterruptedException {
        if (port < 0 || port > 65535) {
            throw new ParameterException(spec.commandLine(), "Invalid value for option '--port': " + port + " (must be 0 to 65535)");
        }
        QuerySession session = engine.newSession(catalog());
        QuiverServer server;
        try {
            if (tpchDir != null) {
                TpchFiles.open(tpchDir).forEach(session::registerTable);
            }
            server = security(QuiverServer.builder(session).host(host).port(port).admission(admission())).start();
        } catch (RuntimeException e) {
            session.close();
            throw e;
        }
        PrintWriter out = spec.commandLine().getOut();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try (QuerySession closedLast = session; QuiverServer closedFirst = server) {
                out.println("Quiver server " + server.address() + " stopped");
                out.flush();
            } finally {
                stopped.countDown();
            }
        }, "quiver-server-shutdown"));
        out.println("Quiver server listening on " + server.address() + " (Arrow Flight SQL; memory limit "
                + ByteSize.formatBytes(engine.memoryLimit()) + ", " + server.admission().maxConcurrent() + " queries at once of "
                + ByteSize.formatBytes(server.admission().queryMemory()) + " each" + session.workerSource().map(source -> ", workers " + source).orElse("") + ")");
        out.println("JDBC: jdbc:arrow-flight-sql://" + server.address() + (server.usesTls() ? "?useEncryption=true" : "?useEncryption=false"));
        out.flush();
        stopped.await();
        return 0;
    }

    private QuiverServer.Builder security(QuiverServer.Builder builder) {
        if ((tlsCert == null) != (tlsKey == null)) {
            throw new ParameterException(spec.commandLine(), "Give both --tls-cert and --tls-key, or neither");
        }
        if (tlsCert != null) {
            builder.tls(new TlsFiles(tlsCert, tlsKey));
        }
        if (users != null) {
            builder.users(UsersFile.read(users));
        }
        if (tokenFile != null) {
            builder.token(ClusterSecrets.text(tokenFile));
        }
        return builder;
    }

    private AdmissionSettings admission() {
        if (maxConcurrent < 1 || maxQueued < 0 || queueTimeoutSeconds < 0) {
            throw new ParameterException(spec.commandLine(), "--max-concurrent-queries must be at least 1, --max-queued-queries and --queue-timeout 0 or more");
        }
        AdmissionSettings defaults = AdmissionSettings.defaults(maxConcurrent, engine.memoryLimit());
        return new AdmissionSettings(maxConcurrent, maxQueued, Duration.ofSeconds(queueTimeoutSeconds),
                queryMemory == null ? defaults.queryMemory() : queryMemory);
    }

    private Catalog catalog() {
        if (tpchScaleFactor != null && tpchDir != null) {
            throw new ParameterException(spec.commandLine(), "Give either --tpch SF (generated tables) or --tpch-dir DIR (files), not both");
        }
        if (tpchScaleFactor == null) {
            return new EmptyCatalog();
        }
        if (!(tpchScaleFactor > 0)) {
            throw new ParameterException(spec.commandLine(), "Invalid value for option '--tpch': " + tpchScaleFactor + " (the scale factor must be positive)");
        }
        return new TpchCatalog(tpchScaleFactor);
    }
}
