package dev.quiver.bench;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.protocol.WorkerAddress;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.memory.ByteSize;
import dev.quiver.engine.source.tpch.TpchQueries;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Settings of a TPC-H benchmark run ({@link TpchBenchmark}).
 *
 * @param scaleFactor TPC-H scale factor
 * @param targetPartitions Quiver's partitions per stage
 * @param memoryLimit Quiver's session memory pool, bytes
 * @param warmups unmeasured runs of each query before the measured ones
 * @param runs measured runs of each query; the median is reported
 * @param queries query numbers to run, in order
 * @param duckdb whether to run DuckDB as the peer
 * @param duckdbThreads DuckDB's {@code threads} setting
 * @param cacheLimit bytes of generated data the TPC-H catalog keeps in memory between queries
 * @param explainSlowest how many of the slowest Quiver queries to show with {@code EXPLAIN ANALYZE}
 * @param source generated tables, or Parquet or Arrow files written once and read by both engines
 * @param dataDir where the files of a file source are written (default: a directory under {@code java.io.tmpdir})
 * @param scanTest whether to also measure the full decode of lineitem ({@link ScanTest})
 * @param cluster also run Quiver distributed on in-process workers, and with which settings
 * @param s3Prefix with a Parquet source: Quiver reads the files from this {@code s3://bucket/prefix}
 *     (uploaded once from {@code dataDir}; endpoint and credentials from the AWS environment variables,
 *     docs/s3.md), DuckDB still from the local files
 * @param quiver whether to run Quiver ({@code --no-quiver} runs DuckDB alone, e.g. to see its peak RSS without Quiver's)
 * @param settings session settings ({@code SET name = value}) of the single-node session and of the distributed one
 */
public record BenchOptions(double scaleFactor, int targetPartitions, long memoryLimit, int warmups, int runs, List<Integer> queries,
        boolean duckdb, int duckdbThreads, long cacheLimit, int explainSlowest, BenchSource source, Optional<Path> dataDir, boolean scanTest,
        Optional<Cluster> cluster, Optional<String> s3Prefix, boolean quiver, Map<String, String> settings) {
    private static final List<String> FLAGS = List.of("--sf", "--partitions", "--memory", "--warmups", "--runs", "--queries",
            "--duckdb-threads", "--cache", "--explain", "--source", "--data-dir", "--s3-prefix");

    public BenchOptions {
        requireNonNull(queries, "queries is null");
        queries = List.copyOf(queries);
        requireNonNull(source, "source is null");
        requireNonNull(dataDir, "dataDir is null");
        requireNonNull(cluster, "cluster is null");
        requireNonNull(s3Prefix, "s3Prefix is null");
        settings = Map.copyOf(requireNonNull(settings, "settings is null"));
        if (!(scaleFactor > 0)) {
            throw invalid("scale factor must be positive: " + scaleFactor);
        }
        if (!quiver && !duckdb) {
            throw invalid("--no-quiver and --no-duckdb together leave nothing to run");
        }
        if (!quiver && (scanTest || cluster.isPresent())) {
            throw invalid("--no-quiver runs DuckDB alone: it cannot be combined with --scan-test or workers");
        }
        if (targetPartitions < 1 || runs < 1 || warmups < 0 || duckdbThreads < 1 || explainSlowest < 0) {
            throw invalid("partitions, runs and threads must be positive, warm-ups and explain counts not negative");
        }
        for (int query : queries) {
            if (query < 1 || query > 22) {
                throw invalid("TPC-H queries are numbered 1 to 22, got " + query);
            }
        }
    }

    /**
     * Scale factor 1, 2 partitions, a 3 GiB pool, 1 warm-up and median of 3, all 22 queries, DuckDB with 2
     * threads, and a 3 GiB catalog cache (all eight tables at SF 1 take about 2.2 GiB as Arrow).
     */
    public static BenchOptions defaults() {
        return new BenchOptions(1, 2, ByteSize.parseBytes("3GiB"), 1, 3, TpchQueries.NUMBERS, true, 2, ByteSize.parseBytes("3GiB"), 3,
                BenchSource.GENERATED, Optional.empty(), false, Optional.empty(), Optional.empty(), true, Map.of());
    }

    public BenchOptions withScaleFactor(double sf) {
        return new BenchOptions(sf, targetPartitions, memoryLimit, warmups, runs, queries, duckdb, duckdbThreads, cacheLimit, explainSlowest, source, dataDir, scanTest, cluster, s3Prefix, quiver, settings);
    }

    public BenchOptions withTargetPartitions(int partitions) {
        return new BenchOptions(scaleFactor, partitions, memoryLimit, warmups, runs, queries, duckdb, duckdbThreads, cacheLimit, explainSlowest, source, dataDir, scanTest, cluster, s3Prefix, quiver, settings);
    }

    public BenchOptions withMemoryLimit(long bytes) {
        return new BenchOptions(scaleFactor, targetPartitions, bytes, warmups, runs, queries, duckdb, duckdbThreads, cacheLimit, explainSlowest, source, dataDir, scanTest, cluster, s3Prefix, quiver, settings);
    }

    public BenchOptions withRuns(int warmupRuns, int measuredRuns) {
        return new BenchOptions(scaleFactor, targetPartitions, memoryLimit, warmupRuns, measuredRuns, queries, duckdb, duckdbThreads, cacheLimit,
                explainSlowest, source, dataDir, scanTest, cluster, s3Prefix, quiver, settings);
    }

    public BenchOptions withQueries(List<Integer> numbers) {
        return new BenchOptions(scaleFactor, targetPartitions, memoryLimit, warmups, runs, numbers, duckdb, duckdbThreads, cacheLimit, explainSlowest, source, dataDir, scanTest, cluster, s3Prefix, quiver, settings);
    }

    public BenchOptions withQuiver(boolean enabled) {
        return new BenchOptions(scaleFactor, targetPartitions, memoryLimit, warmups, runs, queries, duckdb, duckdbThreads, cacheLimit, explainSlowest,
                source, dataDir, scanTest, cluster, s3Prefix, enabled, settings);
    }

    public BenchOptions withDuckDb(boolean enabled, int threads) {
        return new BenchOptions(scaleFactor, targetPartitions, memoryLimit, warmups, runs, queries, enabled, threads, cacheLimit, explainSlowest, source, dataDir, scanTest, cluster, s3Prefix, quiver, settings);
    }

    public BenchOptions withCacheLimit(long bytes) {
        return new BenchOptions(scaleFactor, targetPartitions, memoryLimit, warmups, runs, queries, duckdb, duckdbThreads, bytes, explainSlowest, source, dataDir, scanTest, cluster, s3Prefix, quiver, settings);
    }

    public BenchOptions withExplainSlowest(int count) {
        return new BenchOptions(scaleFactor, targetPartitions, memoryLimit, warmups, runs, queries, duckdb, duckdbThreads, cacheLimit, count, source, dataDir, scanTest, cluster, s3Prefix, quiver, settings);
    }

    public BenchOptions withSource(BenchSource fileSource, Optional<Path> directory) {
        return new BenchOptions(scaleFactor, targetPartitions, memoryLimit, warmups, runs, queries, duckdb, duckdbThreads, cacheLimit, explainSlowest,
                fileSource, directory, scanTest, cluster, s3Prefix, quiver, settings);
    }

    public BenchOptions withS3Prefix(Optional<String> prefix) {
        return new BenchOptions(scaleFactor, targetPartitions, memoryLimit, warmups, runs, queries, duckdb, duckdbThreads, cacheLimit, explainSlowest,
                source, dataDir, scanTest, cluster, prefix, quiver, settings);
    }

    public BenchOptions withScanTest(boolean enabled) {
        return new BenchOptions(scaleFactor, targetPartitions, memoryLimit, warmups, runs, queries, duckdb, duckdbThreads, cacheLimit, explainSlowest,
                source, dataDir, enabled, cluster, s3Prefix, quiver, settings);
    }

    public BenchOptions withSettings(Map<String, String> values) {
        return new BenchOptions(scaleFactor, targetPartitions, memoryLimit, warmups, runs, queries, duckdb, duckdbThreads, cacheLimit, explainSlowest,
                source, dataDir, scanTest, cluster, s3Prefix, quiver, values);
    }

    /**
     * Quiver also runs distributed: on {@code localWorkers} workers started in the benchmark's process
     * (real Flight servers on 127.0.0.1), each with a pool of {@code workerMemoryLimit}, or, when
     * {@code remoteWorkers} lists any, on those running workers ({@code quiver worker}) instead; with
     * the benchmark's {@link BenchOptions#settings() settings}, as the single-node session.
     */
    public record Cluster(int localWorkers, List<WorkerAddress> remoteWorkers, long workerMemoryLimit) {
        public Cluster {
            remoteWorkers = List.copyOf(requireNonNull(remoteWorkers, "remoteWorkers is null"));
            if ((remoteWorkers.isEmpty() && localWorkers < 1) || workerMemoryLimit < 1) {
                throw invalid("local workers and their memory limit must be positive: " + localWorkers + ", " + workerMemoryLimit);
            }
        }

        public Cluster(int localWorkers, long workerMemoryLimit) {
            this(localWorkers, List.of(), workerMemoryLimit);
        }

        /** How the run names the workers: {@code 2 local workers of 1.0 GiB} or {@code workers 10.0.0.2:7070, ...}. */
        public String description() {
            return remoteWorkers.isEmpty() ? localWorkers + " local workers of " + ByteSize.formatBytes(workerMemoryLimit)
                    : "workers " + String.join(", ", remoteWorkers.stream().map(WorkerAddress::toString).toList());
        }
    }

    public BenchOptions withCluster(Optional<Cluster> distributed) {
        return new BenchOptions(scaleFactor, targetPartitions, memoryLimit, warmups, runs, queries, duckdb, duckdbThreads, cacheLimit, explainSlowest,
                source, dataDir, scanTest, distributed, s3Prefix, quiver, settings);
    }

    /** The directory of a file source's dataset: {@code dataDir}, or {@code java.io.tmpdir/quiver-tpch-sf<SF>-<format>}. */
    public Path dataDirectory() {
        return dataDir.orElseGet(() -> Path.of(System.getProperty("java.io.tmpdir"), "quiver-tpch-sf" + scaleText() + "-" + source));
    }

    String scaleText() {
        return scaleFactor == Math.rint(scaleFactor) ? Long.toString((long) scaleFactor) : Double.toString(scaleFactor);
    }

    /**
     * Parses {@code --sf 1 --partitions 2 --memory 3GiB --warmups 1 --runs 3 --queries 1,3,5
     * --duckdb-threads 2 --no-duckdb --no-quiver --cache 2GiB --explain 3 --source parquet --data-dir DIR --s3-prefix s3://b/p --scan-test} over the defaults.
     */
    public static BenchOptions parse(String... args) {
        BenchOptions options = defaults();
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            if (flag.equals("--no-duckdb")) {
                options = options.withDuckDb(false, options.duckdbThreads());
                continue;
            }
            if (flag.equals("--no-quiver")) {
                options = options.withQuiver(false);
                continue;
            }
            if (flag.equals("--scan-test")) {
                options = options.withScanTest(true);
                continue;
            }
            if (!FLAGS.contains(flag)) {
                throw invalid("unknown option " + flag + "; options: " + String.join(", ", FLAGS) + ", --no-duckdb, --no-quiver, --scan-test");
            }
            if (i + 1 >= args.length) {
                throw invalid("option " + flag + " needs a value");
            }
            String value = args[++i];
            try {
                options = switch (flag) {
                    case "--sf" -> options.withScaleFactor(Double.parseDouble(value));
                    case "--partitions" -> options.withTargetPartitions(Integer.parseInt(value));
                    case "--memory" -> options.withMemoryLimit(ByteSize.parseBytes(value));
                    case "--warmups" -> options.withRuns(Integer.parseInt(value), options.runs());
                    case "--runs" -> options.withRuns(options.warmups(), Integer.parseInt(value));
                    case "--queries" -> options.withQueries(parseQueries(value));
                    case "--duckdb-threads" -> options.withDuckDb(options.duckdb(), Integer.parseInt(value));
                    case "--cache" -> options.withCacheLimit(ByteSize.parseBytes(value));
                    case "--explain" -> options.withExplainSlowest(Integer.parseInt(value));
                    case "--source" -> options.withSource(BenchSource.fromName(value), options.dataDir());
                    case "--data-dir" -> options.withSource(options.source(), Optional.of(Path.of(value)));
                    case "--s3-prefix" -> options.withS3Prefix(Optional.of(value));
                    default -> throw new IllegalStateException("flag without a case: " + flag);
                };
            } catch (NumberFormatException e) {
                throw invalid("option " + flag + " expects a number, got '" + value + "'");
            }
        }
        if (options.s3Prefix().isPresent() && (!options.s3Prefix().get().startsWith("s3://") || options.source() != BenchSource.PARQUET)) {
            throw invalid("--s3-prefix takes s3://bucket/prefix, with --source parquet");
        }
        return options;
    }

    private static List<Integer> parseQueries(String value) {
        List<Integer> numbers = new ArrayList<>();
        for (String part : value.split(",")) {
            String text = part.strip().toLowerCase(Locale.ROOT);
            numbers.add(Integer.parseInt(text.startsWith("q") ? text.substring(1) : text));
        }
        return numbers;
    }

    private static QuiverException invalid(String message) {
        return new QuiverException(ErrorCode.INVALID_ARGUMENT, message);
    }

    @Override
    public String toString() {
        return (quiver ? "" : "no quiver, ") + "sf=" + scaleFactor + ", partitions=" + targetPartitions + ", memory=" + ByteSize.formatBytes(memoryLimit)
                + ", warmups=" + warmups + ", runs=" + runs + ", queries=" + Arrays.toString(queries.toArray())
                + (duckdb ? ", duckdb threads=" + duckdbThreads : ", no duckdb") + ", cache=" + ByteSize.formatBytes(cacheLimit)
                + ", source=" + source + (source == BenchSource.GENERATED ? "" : " in " + dataDirectory())
                + s3Prefix.map(prefix -> ", Quiver reads them from " + prefix).orElse("")
                + (settings.isEmpty() ? "" : ", settings " + settings)
                + cluster.map(c -> ", also on " + c.description()).orElse("");
    }
}
