package dev.quiver.cli;

import dev.quiver.bench.AqeBench;
import dev.quiver.bench.BenchOptions;
import dev.quiver.bench.BenchSource;
import dev.quiver.bench.QueryProfiler;
import dev.quiver.bench.TpchBenchmark;
import dev.quiver.bench.TpchBenchmark.QueryTiming;
import dev.quiver.distributed.protocol.WorkerAddress;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code quiver bench tpch}: the TPC-H queries on Quiver and on DuckDB in this process
 * ({@link TpchBenchmark}). Exits 1 when a query fails on an engine or the row counts differ.
 */
@Command(
        name = "tpch",
        mixinStandardHelpOptions = true,
        description = {
            "Runs the TPC-H queries warm on Quiver and on DuckDB (in this process, with the same thread count) "
                    + "and prints each query's median time, the Quiver/DuckDB ratio and the totals.",
        },
        footer = {"", "Example:", "  quiver bench tpch --sf 1", "  quiver bench tpch --sf 0.1 --queries 1,3,18 --runs 5",
            "  quiver bench tpch --sf 1 --source parquet --scan-test",
            "  quiver bench tpch --sf 1 --local-workers 2   # also on 2 in-process workers, with bytes exchanged per query",
            "  quiver bench tpch --sf 1 --local-workers 4 --dynamic --accuracy   # static vs AQE task counts on 4 workers"})
final class BenchTpchCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Mixin
    private BenchRunOptions runOptions;

    @Option(names = "--queries", paramLabel = "LIST", split = ",",
            description = "Query numbers to run, e.g. 1,3,18 or q1,q3 (default: all 22).")
    private List<String> queries;

    @Option(names = "--explain", paramLabel = "N", defaultValue = "3",
            description = "Show EXPLAIN ANALYZE of the N slowest Quiver queries (default: ${DEFAULT-VALUE}).")
    private int explainSlowest;

    @Option(names = "--source", paramLabel = "SOURCE", defaultValue = "generated",
            description = "Where the tables come from: generated (in memory), parquet or arrow (files written once to --data-dir; "
                    + "DuckDB reads the same Parquet files, and is loaded from the Arrow files) (default: ${DEFAULT-VALUE}).")
    private String source;

    @Option(names = "--data-dir", paramLabel = "DIR",
            description = "Directory of the parquet or arrow files, reused when it holds a complete dataset "
                    + "(default: quiver-tpch-sf<SF>-<source> in java.io.tmpdir).")
    private Path dataDir;

    @Option(names = "--profile", paramLabel = "DIR",
            description = "Also profile each query's Quiver runs with JDK Flight Recorder, after timing them: prints where the time goes and writes "
                    + "NAME.jfr and NAME.collapsed (for a flame graph) into DIR.")
    private Path profileDir;

    @Option(names = "--s3-prefix", paramLabel = "s3://BUCKET/PREFIX",
            description = "With --source parquet: Quiver reads the dataset from this S3 prefix, uploaded there once from --data-dir "
                    + "(endpoint and credentials from AWS_ENDPOINT_URL, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY; docs/s3.md); DuckDB reads the local files.")
    private String s3Prefix;

    @Option(names = "--no-quiver", description = "Run DuckDB alone (its time and the process's peak RSS without Quiver's).")
    private boolean noQuiver;

    @Option(names = "--scan-test", description = "Also time min and max of all 16 lineitem columns on both engines (rows/s, Arrow MiB/s).")
    private boolean scanTest;

    @Option(names = "--local-workers", paramLabel = "N",
            description = "Also run Quiver distributed on N workers started in this process (Flight on 127.0.0.1), "
                    + "and print its time next to single-node and the bytes exchanged between stages.")
    private Integer localWorkers;

    @Option(names = "--workers", paramLabel = "HOST:PORT,...", split = ",",
            description = "Also run Quiver distributed on these running workers (quiver worker), instead of on --local-workers.")
    private List<String> workers;

    @Option(names = "--worker-memory-limit", paramLabel = "SIZE", defaultValue = EngineOptions.DEFAULT_WORKER_MEMORY_LIMIT,
            converter = EngineOptions.SizeConverter.class,
            description = "Memory pool of each local worker (default: ${DEFAULT-VALUE}).")
    private long workerMemoryLimit;

    @Option(names = "--set", paramLabel = "NAME=VALUE",
            description = "A setting of Quiver's sessions, single-node and distributed (repeatable), as SET takes it, "
                    + "e.g. --set hash_join_collect_left_max_rows=1000 or --set distributed.max_tasks_per_stage=4.")
    private Map<String, String> settings = new LinkedHashMap<>();

    @Option(names = "--dynamic",
            description = "With --local-workers: run each query on the workers with static task counts and with AQE "
                    + "(distributed.dynamic_task_count=true) and print both times, their ratio and the task counts each chose (no single-node or DuckDB run).")
    private boolean dynamic;

    @Option(names = "--accuracy", description = "With --dynamic: also print AQE's estimation accuracy (q-error of rows and bytes, fraction sampled) over every sampled stage.")
    private boolean accuracy;

    @Override
    public Integer call() {
        BenchOptions options = options();
        PrintWriter out = spec.commandLine().getOut();
        if (dynamic) {
            if (options.cluster().isEmpty()) {
                throw new ParameterException(spec.commandLine(), "Option '--dynamic' compares modes on workers: use it with '--local-workers N'");
            }
            List<AqeBench.Comparison> results;
            try (PrintStream stream = new PrintStream(new WriterOutputStream(out), true, StandardCharsets.UTF_8)) {
                results = AqeBench.run(options, stream, accuracy);
            }
            List<String> failed = results.stream().filter(r -> !r.error().isEmpty()).map(r -> "q" + r.query() + " (" + r.error() + ")").toList();
            if (!failed.isEmpty()) {
                PrintWriter err = spec.commandLine().getErr();
                err.printf(Locale.ROOT, "Error: %d of %d queries failed: %s%n", failed.size(), results.size(), String.join(", ", failed));
                err.flush();
                return ErrorReporter.FAILURE;
            }
            return 0;
        }
        TpchBenchmark.Report report;
        try (PrintStream stream = new PrintStream(new WriterOutputStream(out), true, StandardCharsets.UTF_8)) {
            report = TpchBenchmark.run(options, Optional.ofNullable(profileDir).map(QueryProfiler::writingTo), stream);
        }
        List<String> failures = new ArrayList<>();
        for (QueryTiming timing : report.timings()) {
            if (!timing.error().isEmpty()) {
                failures.add("q" + timing.query() + " (" + timing.error() + ")");
            }
        }
        report.scan().filter(scan -> !scan.error().isEmpty()).ifPresent(scan -> failures.add("scan test (" + scan.error() + ")"));
        if (!failures.isEmpty()) {
            PrintWriter err = spec.commandLine().getErr();
            err.printf(Locale.ROOT, "Error: %d of %d queries failed: %s%n", failures.size(), report.timings().size(), String.join(", ", failures));
            err.flush();
            return ErrorReporter.FAILURE;
        }
        return 0;
    }

    private BenchOptions options() {
        try {
            BenchOptions options = runOptions.apply(BenchOptions.defaults(), (localWorkers == null ? 3L : 6L) << 30)
                    .withExplainSlowest(explainSlowest)
                    .withSource(BenchSource.fromName(source), Optional.ofNullable(dataDir))
                    .withScanTest(scanTest)
                    .withQuiver(!noQuiver)
                    .withS3Prefix(Optional.ofNullable(s3Prefix))
                    .withSettings(settings)
                    .withCluster(cluster());
            if (s3Prefix != null && (!s3Prefix.startsWith("s3://") || options.source() != BenchSource.PARQUET)) {
                throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "--s3-prefix takes s3://bucket/prefix, with --source parquet");
            }
            if (queries != null) {
                List<Integer> numbers = new ArrayList<>();
                for (String query : queries) {
                    numbers.add(queryNumber(query));
                }
                options = options.withQueries(numbers);
            }
            return options;
        } catch (QuiverException e) {
            throw new ParameterException(spec.commandLine(), "Invalid benchmark options: " + e.getMessage());
        }
    }

    private Optional<BenchOptions.Cluster> cluster() {
        if (workers != null) {
            if (localWorkers != null) {
                throw new ParameterException(spec.commandLine(), "Options '--workers' and '--local-workers' exclude each other: give one");
            }
            List<WorkerAddress> addresses = new ArrayList<>();
            for (String worker : workers) {
                try {
                    addresses.add(WorkerAddress.parse(worker));
                } catch (QuiverException e) {
                    throw new ParameterException(spec.commandLine(), "Invalid value for option '--workers': " + e.getMessage());
                }
            }
            return Optional.of(new BenchOptions.Cluster(0, addresses, workerMemoryLimit));
        }
        if (localWorkers == null) {
            return Optional.empty();
        }
        if (localWorkers < 1) {
            throw new ParameterException(spec.commandLine(), "Invalid value for option '--local-workers': " + localWorkers + " (must be at least 1)");
        }
        return Optional.of(new BenchOptions.Cluster(localWorkers, workerMemoryLimit));
    }

    private int queryNumber(String text) {
        String digits = text.strip().toLowerCase(Locale.ROOT);
        digits = digits.startsWith("q") ? digits.substring(1) : digits;
        try {
            return Integer.parseInt(digits);
        } catch (NumberFormatException e) {
            throw new ParameterException(spec.commandLine(),
                    "Invalid value for option '--queries': '" + text + "' is not a query number such as 5 or q5");
        }
    }
}
