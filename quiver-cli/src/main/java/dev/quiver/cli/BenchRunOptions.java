package dev.quiver.cli;

import dev.quiver.bench.BenchOptions;
import picocli.CommandLine.Option;

/**
 * The options every benchmark shares (a picocli mixin of {@code bench tpch} and {@code bench window}):
 * the scale factor, Quiver's partitions and pool, the runs, DuckDB as the peer, and the catalog cache.
 */
final class BenchRunOptions {
    @Option(names = "--sf", paramLabel = "SF", defaultValue = "1", description = "TPC-H scale factor (default: ${DEFAULT-VALUE}).")
    private double scaleFactor;

    @Option(names = "--partitions", paramLabel = "N", defaultValue = "2",
            description = "Quiver's partitions per stage; also DuckDB's threads unless --duckdb-threads (default: ${DEFAULT-VALUE}).")
    private int partitions;

    @Option(names = "--memory-limit", paramLabel = "SIZE", defaultValue = EngineOptions.DEFAULT_MEMORY_LIMIT,
            converter = EngineOptions.SizeConverter.class,
            description = "Quiver's memory pool limit (default: ${DEFAULT-VALUE}).")
    private long memoryLimit;

    @Option(names = "--warmups", paramLabel = "N", defaultValue = "1", description = "Unmeasured runs of each query first (default: ${DEFAULT-VALUE}).")
    private int warmups;

    @Option(names = "--runs", paramLabel = "N", defaultValue = "3", description = "Measured runs of each query; the median is reported (default: ${DEFAULT-VALUE}).")
    private int runs;

    @Option(names = "--no-duckdb", description = "Run Quiver only.")
    private boolean noDuckdb;

    @Option(names = "--duckdb-threads", paramLabel = "N", description = "DuckDB's threads (default: as --partitions).")
    private Integer duckdbThreads;

    @Option(names = "--cache", paramLabel = "SIZE", converter = EngineOptions.SizeConverter.class,
            description = "Generated TPC-H data kept in memory between runs (default: 3GiB; for bench tpch 6GiB with --local-workers, "
                    + "whose tasks split tables into other parts than single-node does, so each layout is kept once).")
    private Long cacheBytes;

    /** The defaults overlaid with these options; the cache is {@code defaultCacheBytes} unless {@code --cache} was given. */
    BenchOptions apply(BenchOptions defaults, long defaultCacheBytes) {
        return defaults.withScaleFactor(scaleFactor)
                .withTargetPartitions(partitions)
                .withMemoryLimit(memoryLimit)
                .withRuns(warmups, runs)
                .withDuckDb(!noDuckdb, duckdbThreads == null ? partitions : duckdbThreads)
                .withCacheLimit(cacheBytes == null ? defaultCacheBytes : cacheBytes);
    }
}
