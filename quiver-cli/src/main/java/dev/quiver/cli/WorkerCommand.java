package dev.quiver.cli;

import dev.quiver.distributed.protocol.ClusterSecurity;
import dev.quiver.distributed.protocol.QuiverVersion;
import dev.quiver.distributed.worker.WorkerServer;
import dev.quiver.engine.memory.ByteSize;
import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.session.SqlPlanCodec;
import dev.quiver.session.spi.QuiverPlugins;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code quiver worker}: runs a worker, an Arrow Flight server that executes the tasks coordinators
 * send it, until the process is told to stop (SIGTERM or Ctrl-C), when it cancels its tasks and
 * frees everything before the JVM exits.
 */
@Command(
        name = "worker",
        mixinStandardHelpOptions = true,
        description = {
            "Starts a Quiver worker and prints the address it listens on. Coordinators use it with "
                    + "quiver sql --workers HOST:PORT,... . Stops cleanly on SIGTERM or Ctrl-C, cancelling its tasks.",
        },
        footer = {"", "Examples:", "  quiver worker --port 7001 --memory-limit 2GiB",
            "  quiver worker --host 0.0.0.0 --port 0   # any free port, printed on start"})
final class WorkerCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--host", paramLabel = "HOST", defaultValue = "127.0.0.1",
            description = "Address to listen on (default: ${DEFAULT-VALUE}).")
    private String host;

    @Option(names = "--port", paramLabel = "PORT", defaultValue = "0",
            description = "Port to listen on; 0 picks a free one (default: ${DEFAULT-VALUE}).")
    private int port;

    @Option(names = "--memory-limit", paramLabel = "SIZE", defaultValue = EngineOptions.DEFAULT_MEMORY_LIMIT,
            converter = EngineOptions.SizeConverter.class,
            description = "Memory pool shared by this worker's tasks, e.g. 2GiB (default: ${DEFAULT-VALUE}).")
    private long memoryLimit;

    @Option(names = "--cores", paramLabel = "N",
            description = "Cores to report to coordinators (default: the number of cores).")
    private Integer cores;

    @Option(names = "--cluster-secret-file", paramLabel = "FILE",
            description = "Refuse every call that does not carry the token of the cluster secret in FILE (give coordinators the same file).")
    private Path clusterSecretFile;

    @Option(names = "--tls-cert", paramLabel = "FILE", description = "Serve TLS with this PEM certificate; needs --tls-key and --tls-trust.")
    private Path tlsCert;

    @Option(names = "--tls-key", paramLabel = "FILE", description = "The PEM private key (PKCS#8) of --tls-cert.")
    private Path tlsKey;

    @Option(names = "--tls-trust", paramLabel = "FILE",
            description = "The PEM certificate(s) this worker trusts when it reads other workers' data (theirs, or their CA's).")
    private Path tlsTrust;

    private ClusterSecurity security() {
        ClusterSecurity security = ClusterSecurity.NONE;
        if (clusterSecretFile != null) {
            security = security.withSecret(ClusterSecrets.read(clusterSecretFile));
        }
        if (tlsCert != null || tlsKey != null || tlsTrust != null) {
            if (tlsCert == null || tlsKey == null || tlsTrust == null) {
                throw new ParameterException(spec.commandLine(), "A worker's TLS needs --tls-cert, --tls-key and --tls-trust (the cluster's certificates)");
            }
            security = security.withTls(tlsCert, tlsKey, tlsTrust);
        }
        return security;
    }

    @Override
    public Integer call() throws InterruptedException {
        if (port < 0 || port > 65535) {
            throw new ParameterException(spec.commandLine(), "Invalid value for option '--port': " + port + " (must be 0 to 65535)");
        }
        int reportedCores = cores == null ? Runtime.getRuntime().availableProcessors() : cores;
        if (reportedCores < 1) {
            throw new ParameterException(spec.commandLine(), "Invalid value for option '--cores': " + reportedCores + " (must be at least 1)");
        }
        // TPC-H scans decode against one catalog per scale factor, so a worker generates each part once per query, not per task
        Map<Double, TpchCatalog> tpchCatalogs = new ConcurrentHashMap<>();
        WorkerServer worker = WorkerServer.builder()
                .name("worker")
                .host(host)
                .port(port)
                .memoryLimit(memoryLimit)
                .cores(reportedCores)
                .version(QuiverVersion.CURRENT)
                .security(security())
                // the codecs of the plugins on the class path, so that it decodes what their coordinators send
                .codec(SqlPlanCodec.builder(QuiverPlugins.load(WorkerCommand.class.getClassLoader()))
                        .tpchCatalogs(sf -> tpchCatalogs.computeIfAbsent(sf, TpchCatalog::new)).build())
                .start();
        PrintWriter out = spec.commandLine().getOut();
        CountDownLatch stopped = new CountDownLatch(1);
        Thread shutdown = new Thread(() -> {
            try {
                int running = worker.activeTasks();
                worker.close();
                out.println("Quiver worker " + worker.address() + " stopped (" + running + " task" + (running == 1 ? "" : "s") + " cancelled)");
                out.flush();
            } finally {
                stopped.countDown();
            }
        }, "quiver-worker-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdown);
        out.println("Quiver worker " + QuiverVersion.CURRENT + " listening on " + worker.address()
                + " (memory limit " + ByteSize.formatBytes(memoryLimit) + ", " + reportedCores + " cores)");
        out.flush();
        stopped.await();
        return 0;
    }
}
