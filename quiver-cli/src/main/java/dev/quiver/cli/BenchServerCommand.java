package dev.quiver.cli;

import dev.quiver.bench.ServerBench;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code quiver bench server}: a server in this process through the Flight SQL JDBC driver ({@link ServerBench}). */
@Command(
        name = "server",
        mixinStandardHelpOptions = true,
        description = {"Starts a Quiver server in this process and measures it through the Arrow Flight SQL JDBC driver: the warm "
                + "round trip of select 1 (median of --round-trips), then --clients connections running TPC-H queries for --seconds, "
                + "in queries per minute; prints the load average beside the figures."},
        footer = {"", "Examples:", "  quiver bench server --sf 0.1", "  quiver bench server --sf 0.1 --local-workers 2"})
final class BenchServerCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--sf", paramLabel = "SF", defaultValue = "0.1", description = "TPC-H scale factor (default: ${DEFAULT-VALUE}).")
    private double scaleFactor;

    @Option(names = "--clients", paramLabel = "N", defaultValue = "8", description = "Concurrent JDBC connections (default: ${DEFAULT-VALUE}).")
    private int clients;

    @Option(names = "--seconds", paramLabel = "S", defaultValue = "60", description = "How long the clients run (default: ${DEFAULT-VALUE}).")
    private int seconds;

    @Option(names = "--round-trips", paramLabel = "N", defaultValue = "1000", description = "select 1 executions measured (default: ${DEFAULT-VALUE}).")
    private int roundTrips;

    @Option(names = "--local-workers", paramLabel = "N", defaultValue = "0", description = "Run on N in-process workers (default: single-node).")
    private int localWorkers;

    @Option(names = "--memory-limit", paramLabel = "SIZE", defaultValue = EngineOptions.DEFAULT_MEMORY_LIMIT, converter = EngineOptions.SizeConverter.class,
            description = "The server's pool, and each local worker's (default: ${DEFAULT-VALUE}).")
    private long memoryLimit;

    @Override
    public Integer call() throws Exception {
        if (!(scaleFactor > 0) || clients < 1 || seconds < 1 || roundTrips < 1 || localWorkers < 0) {
            throw new ParameterException(spec.commandLine(), "--sf must be positive; --clients, --seconds and --round-trips at least 1; --local-workers 0 or more");
        }
        PrintWriter out = spec.commandLine().getOut();
        try (PrintStream stream = new PrintStream(new WriterOutputStream(out), true, StandardCharsets.UTF_8)) {
            ServerBench.run(new ServerBench.Options(scaleFactor, clients, Duration.ofSeconds(seconds), roundTrips, localWorkers, memoryLimit), stream);
        }
        return 0;
    }
}
