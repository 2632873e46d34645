package dev.quiver.bench;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.memory.ByteSize;
import dev.quiver.engine.source.files.FileFormat;
import dev.quiver.engine.source.storage.Storages;
import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.engine.source.tpch.TpchQueries;
import dev.quiver.engine.spi.Catalog;
import dev.quiver.session.QueryResult;
import dev.quiver.session.QuerySession;
import dev.quiver.session.SessionSettings;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * The TPC-H benchmark: Quiver against DuckDB (in-process, same data, same thread count) on the
 * 22 queries, warm: each query runs {@code warmups} times unmeasured, then {@code runs} times,
 * and the median is reported. Data is generated once into the catalog's cache (so no run pays for
 * generation) and loaded from there into DuckDB. With a file source ({@link BenchSource}) the
 * tables are written once as Parquet or Arrow files ({@link TpchFileData}) and Quiver reads them;
 * DuckDB reads the same Parquet files through views, or, for Arrow (which DuckDB reads only with an
 * extension), is loaded from the Arrow files into its own tables.
 *
 * <p>Prints per-query medians, the Quiver/DuckDB ratio, totals, the session pool's peak, the
 * process's peak RSS (DuckDB included: it runs in this process), and {@code EXPLAIN ANALYZE} of the
 * slowest Quiver queries. A query that fails on one engine is reported and the run goes on.
 */
public final class TpchBenchmark {
    private TpchBenchmark() {}

    /**
     * What one query measured; a missing time means the engine failed it (see {@code error}).
     * {@code clusterMillis} and {@code exchangedBytes} (-1 when absent) are Quiver's run on local workers.
     */
    public record QueryTiming(int query, OptionalDouble quiverMillis, OptionalDouble duckdbMillis, OptionalDouble clusterMillis, long quiverRows,
            long duckdbRows, long exchangedBytes, String error) {
        public QueryTiming {
            requireNonNull(quiverMillis, "quiverMillis is null");
            requireNonNull(duckdbMillis, "duckdbMillis is null");
            requireNonNull(clusterMillis, "clusterMillis is null");
            requireNonNull(error, "error is null");
        }

        /** Quiver's time on local workers over its single-node time, when both ran. */
        public OptionalDouble clusterRatio() {
            return TpchBenchmark.ratio(clusterMillis, quiverMillis);
        }

        /** Quiver's time over DuckDB's, when both ran. */
        public OptionalDouble ratio() {
            return TpchBenchmark.ratio(quiverMillis, duckdbMillis);
        }
    }

    /** {@code time / base}, when both are present and {@code base} is positive. */
    static OptionalDouble ratio(OptionalDouble time, OptionalDouble base) {
        return time.isPresent() && base.isPresent() && base.getAsDouble() > 0
                ? OptionalDouble.of(time.getAsDouble() / base.getAsDouble()) : OptionalDouble.empty();
    }

    /** The outcome of a run. */
    public record Report(List<QueryTiming> timings, Optional<ScanTest.Result> scan, long peakPoolBytes, long peakRssBytes, long cacheBytes, double loadSeconds) {
        public Report {
            timings = List.copyOf(timings);
            requireNonNull(scan, "scan is null");
        }
    }

    public static void main(String[] args) {
        run(BenchOptions.parse(args), System.out);
    }

    /** Runs the benchmark, printing progress and the summary to {@code out}. */
    public static Report run(BenchOptions options, PrintStream out) {
        return run(options, Optional.empty(), out);
    }

    /**
     * Runs the benchmark; with a profiler, each query's single-node Quiver runs are repeated once
     * more under it after they were timed (so the timings are not the profiled runs), and the
     * profile's summary is printed under the query's line.
     */
    public static Report run(BenchOptions options, Optional<QueryProfiler> profiler, PrintStream out) {
        out.println("TPC-H benchmark: " + options);
        out.println("JVM " + Runtime.version() + ", max heap " + ByteSize.formatBytes(Runtime.getRuntime().maxMemory())
                + ", " + Runtime.getRuntime().availableProcessors() + " cores");
        if (options.source() == BenchSource.GENERATED) {
            try (TpchCatalog catalog = TpchCatalog.cached(options.scaleFactor(), options.cacheLimit())) {
                long loadStart = System.nanoTime();
                DuckDbTpch duckdb = options.duckdb() ? DuckDbTpch.load(catalog, options.duckdbThreads()) : null;
                double loadSeconds = (System.nanoTime() - loadStart) / 1e9;
                if (duckdb != null) {
                    out.printf(Locale.ROOT, "generated and loaded into DuckDB in %.1f s (catalog cache %s)%n", loadSeconds,
                            ByteSize.formatBytes(catalog.cachedBytes()));
                }
                return runQueries(options, profiler, out, catalog, duckdb, catalog::cachedBytes, loadSeconds);
            }
        }
        FileFormat format = options.source().format().orElseThrow();
        TpchFileData data = TpchFileData.prepare(options.scaleFactor(), format, options.dataDirectory(), options.targetPartitions());
        out.printf(Locale.ROOT, "%s %s files in %s%n", data.written() ? String.format(Locale.ROOT, "wrote in %.1f s:", data.seconds())
                : "reusing", options.source(), data.directory());
        Catalog catalog = data.catalog();
        if (options.s3Prefix().isPresent()) {
            Storages storages = Storages.from(SessionSettings.REGISTRY.defaults());
            long uploadStart = System.nanoTime();
            long bytes = data.upload(storages, options.s3Prefix().get());
            catalog = TpchFileData.catalog(storages, options.s3Prefix().get());
            out.printf(Locale.ROOT, "Quiver reads the files (%s of Parquet) from %s (uploaded if absent and opened in %.1f s); DuckDB the local ones%n",
                    ByteSize.formatBytes(bytes), options.s3Prefix().get(), (System.nanoTime() - uploadStart) / 1e9);
        }
        long loadStart = System.nanoTime();
        DuckDbTpch duckdb = null;
        if (options.duckdb()) {
            duckdb = format == FileFormat.PARQUET ? data.duckdbViews(options.duckdbThreads()) : DuckDbTpch.load(catalog, options.duckdbThreads());
            out.println(format == FileFormat.PARQUET ? "DuckDB reads the same Parquet files (views over read_parquet)"
                    : String.format(Locale.ROOT, "DuckDB cannot read Arrow IPC files without an extension: loaded into DuckDB tables "
                            + "from the Arrow files in %.1f s, so DuckDB queries in-memory tables", (System.nanoTime() - loadStart) / 1e9));
        }
        return runQueries(options, profiler, out, catalog, duckdb, () -> 0, (System.nanoTime() - loadStart) / 1e9);
    }

    private static Report runQueries(BenchOptions options, Optional<QueryProfiler> profiler, PrintStream out, Catalog catalog, DuckDbTpch duckdb,
            LongSupplier cacheBytes, double loadSeconds) {
        try (QuerySession session = QuerySession.builder().catalog(catalog).targetPartitions(options.targetPartitions())
                .memoryLimit(options.memoryLimit()).settings(options.settings()).build();
                ClusterRuns cluster = options.cluster().map(c -> ClusterRuns.open(options, c, catalog)).orElse(null)) {
            if (cluster != null) {
                out.printf(Locale.ROOT, "%-4s %12s %12s %8s %12s %12s %8s %10s  %s%n", "q", "quiver ms", "workers ms", "w/single", "exchanged",
                        "duckdb ms", "ratio", "rows", "check");
            } else {
                out.printf(Locale.ROOT, "%-4s %12s %12s %8s %10s  %s%n", "q", "quiver ms", "duckdb ms", "ratio", "rows", "check");
            }
            List<QueryTiming> timings = new ArrayList<>();
            for (int query : options.queries()) {
                QueryTiming timing = measure(query, options, session, cluster, duckdb);
                timings.add(timing);
                printTiming(out, timing, cluster != null, duckdb != null);
                if (profiler.isPresent() && timing.quiverMillis().isPresent()) {
                    String text = TpchQueries.query(query, options.scaleFactor());
                    QueryProfiler.Profile profile = profiler.get().profile("q" + query, () -> {
                        for (int i = 0; i < options.runs(); i++) {
                            runQuiver(session, query, text);
                        }
                    });
                    ProfileSummary.print(out, profile, options.runs());
                }
            }
            profiler.ifPresent(p -> out.println("profiles (NAME.jfr, NAME.collapsed for a flame graph) in " + p.directory()));
            Optional<ScanTest.Result> scan = options.scanTest()
                    ? Optional.of(ScanTest.run(options, catalog, session, duckdb, out)) : Optional.empty();
            Report report = new Report(timings, scan, session.memoryPool().peak(), peakRss(), cacheBytes.getAsLong(), loadSeconds);
            printSummary(out, report);
            explainSlowest(out, options, session, timings, QueryTiming::quiverMillis, "");
            if (cluster != null) {
                explainSlowest(out, options, cluster.session(), timings, QueryTiming::clusterMillis, " on workers");
            }
            return report;
        } finally {
            if (duckdb != null) {
                duckdb.close();
            }
        }
    }

    private static QueryTiming measure(int query, BenchOptions options, QuerySession session, ClusterRuns cluster, DuckDbTpch duckdb) {
        String text = TpchQueries.query(query, options.scaleFactor());
        List<String> errors = new ArrayList<>();
        long[] quiverRows = {-1};
        OptionalDouble quiver = !options.quiver() ? OptionalDouble.empty()
                : time(options, errors, "quiver", () -> quiverRows[0] = runQuiver(session, query, text));
        long[] clusterRows = {-1};
        OptionalDouble onWorkers = cluster == null ? OptionalDouble.empty()
                : time(options, errors, "quiver on workers", () -> clusterRows[0] = cluster.run(query, text));
        long[] duckdbRows = {-1};
        OptionalDouble duck = duckdb == null ? OptionalDouble.empty()
                : time(options, errors, "duckdb", () -> duckdbRows[0] = runDuckDb(duckdb, query, text));
        if (quiver.isPresent() && duck.isPresent() && quiverRows[0] != duckdbRows[0]) {
            errors.add("row counts differ");
        }
        if (quiver.isPresent() && onWorkers.isPresent() && quiverRows[0] != clusterRows[0]) {
            errors.add("row counts differ on workers");
        }
        long exchanged = onWorkers.isPresent() ? cluster.lastExchangedBytes() : -1;
        return new QueryTiming(query, quiver, duck, onWorkers, quiverRows[0], duckdbRows[0], exchanged, String.join("; ", errors));
    }

    /** The median of the measured runs in milliseconds, or empty (and an error noted) if a run failed. */
    static OptionalDouble time(BenchOptions options, List<String> errors, String engine, LongSupplier run) {
        double[] millis = new double[options.runs()];
        try {
            for (int i = 0; i < options.warmups(); i++) {
                run.getAsLong();
            }
            for (int i = 0; i < options.runs(); i++) {
                long start = System.nanoTime();
                run.getAsLong();
                millis[i] = (System.nanoTime() - start) / 1e6;
            }
        } catch (RuntimeException e) {
            String message = String.valueOf(e.getMessage());
            errors.add(engine + " failed: " + message.lines().findFirst().orElse(e.getClass().getSimpleName()));
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(median(millis));
    }

    /** The median of {@code values} (sorted in place), the mean of the middle two for an even count. */
    static double median(double[] values) {
        Arrays.sort(values);
        int n = values.length;
        return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
    }

    private static long runQuiver(QuerySession session, int query, String text) {
        QueryResult result = session.executeScript(text);
        if (TpchQueries.isScript(query)) {
            session.execute("DROP VIEW IF EXISTS revenue").close();
        }
        return result.rowCount();
    }

    private static long runDuckDb(DuckDbTpch duckdb, int query, String text) {
        long rows = duckdb.query(text).rows().size();
        if (TpchQueries.isScript(query)) {
            duckdb.execute("DROP VIEW IF EXISTS revenue");
        }
        return rows;
    }

    private static void printTiming(PrintStream out, QueryTiming timing, boolean withCluster, boolean withDuckDb) {
        long shown = timing.quiverRows() >= 0 ? timing.quiverRows() : timing.duckdbRows();
        String rows = shown >= 0 ? Long.toString(shown) : "-";
        String check = timing.error().isEmpty() ? "ok" : timing.error();
        String duckdb = withDuckDb ? millis(timing.duckdbMillis()) : "-";
        if (withCluster) {
            out.printf(Locale.ROOT, "q%-3d %12s %12s %8s %12s %12s %8s %10s  %s%n", timing.query(), millis(timing.quiverMillis()),
                    millis(timing.clusterMillis()), ratio(timing.clusterRatio()),
                    timing.exchangedBytes() >= 0 ? ByteSize.formatBytes(timing.exchangedBytes()) : "-", duckdb, ratio(timing.ratio()), rows, check);
        } else {
            out.printf(Locale.ROOT, "q%-3d %12s %12s %8s %10s  %s%n", timing.query(), millis(timing.quiverMillis()), duckdb, ratio(timing.ratio()),
                    rows, check);
        }
        out.flush();
    }

    private static String ratio(OptionalDouble value) {
        return value.isPresent() ? String.format(Locale.ROOT, "%.2fx", value.getAsDouble()) : "-";
    }

    private static void printSummary(PrintStream out, Report report) {
        List<QueryTiming> both = report.timings().stream().filter(t -> t.ratio().isPresent()).toList();
        double quiverTotal = both.stream().mapToDouble(t -> t.quiverMillis().getAsDouble()).sum();
        double duckdbTotal = both.stream().mapToDouble(t -> t.duckdbMillis().getAsDouble()).sum();
        double geomean = Math.exp(both.stream().mapToDouble(t -> Math.log(t.ratio().getAsDouble())).average().orElse(0));
        long quiverOnly = report.timings().stream().filter(t -> t.quiverMillis().isPresent()).count();
        if (!both.isEmpty()) {
            out.printf(Locale.ROOT, "%-4s %12.1f %12.1f %8s   (%d queries ran on both; geometric mean of ratios %.2fx)%n",
                    "sum", quiverTotal, duckdbTotal, String.format(Locale.ROOT, "%.2fx", quiverTotal / duckdbTotal), both.size(), geomean);
        }
        List<QueryTiming> duckdbOnly = report.timings().stream().filter(t -> t.quiverMillis().isEmpty() && t.duckdbMillis().isPresent()).toList();
        if (both.isEmpty() && !duckdbOnly.isEmpty()) {
            out.printf(Locale.ROOT, "%-4s %12s %12.1f   (%d queries ran on DuckDB alone)%n", "sum", "-",
                    duckdbOnly.stream().mapToDouble(t -> t.duckdbMillis().getAsDouble()).sum(), duckdbOnly.size());
        }
        List<QueryTiming> onWorkers = report.timings().stream().filter(t -> t.clusterRatio().isPresent()).toList();
        if (!onWorkers.isEmpty()) {
            double single = onWorkers.stream().mapToDouble(t -> t.quiverMillis().getAsDouble()).sum();
            double cluster = onWorkers.stream().mapToDouble(t -> t.clusterMillis().getAsDouble()).sum();
            double clusterGeomean = Math.exp(onWorkers.stream().mapToDouble(t -> Math.log(t.clusterRatio().getAsDouble())).average().orElse(0));
            long exchanged = onWorkers.stream().mapToLong(t -> Math.max(0, t.exchangedBytes())).sum();
            out.printf(Locale.ROOT, "on workers: %.1f ms vs %.1f ms single-node = %.2fx in total (geometric mean %.2fx) over %d queries; "
                    + "%s exchanged between stages%n", cluster, single, cluster / single, clusterGeomean, onWorkers.size(), ByteSize.formatBytes(exchanged));
        }
        out.printf(Locale.ROOT, "Quiver ran %d of %d queries; peak pool use %s; catalog cache %s; process peak RSS %s%s%n",
                quiverOnly, report.timings().size(), ByteSize.formatBytes(report.peakPoolBytes()), ByteSize.formatBytes(report.cacheBytes()),
                report.peakRssBytes() >= 0 ? ByteSize.formatBytes(report.peakRssBytes()) : "unknown",
                duckdbOnly.size() == report.timings().size() ? " (DuckDB alone)" : report.timings().stream().anyMatch(t -> t.duckdbMillis().isPresent())
                        ? " (DuckDB included)" : " (Quiver alone)");
    }

    private static void explainSlowest(PrintStream out, BenchOptions options, QuerySession session, List<QueryTiming> timings,
            Function<QueryTiming, OptionalDouble> millis, String where) {
        List<QueryTiming> slowest = timings.stream().filter(t -> millis.apply(t).isPresent())
                .sorted(Comparator.comparingDouble((QueryTiming t) -> millis.apply(t).getAsDouble()).reversed())
                .limit(options.explainSlowest()).toList();
        for (QueryTiming timing : slowest) {
            List<String> statements = DuckDbTpch.statements(TpchQueries.query(timing.query(), options.scaleFactor()));
            try {
                for (String statement : statements.subList(0, statements.size() - 1)) {
                    session.execute(statement).close();
                }
                QueryResult plan = session.executeScript("EXPLAIN ANALYZE " + statements.get(statements.size() - 1));
                out.printf(Locale.ROOT, "%nEXPLAIN ANALYZE q%d%s (median %s ms):%n", timing.query(), where, millis(millis.apply(timing)));
                plan.rows().forEach(row -> out.println(row.get(0)));
                if (TpchQueries.isScript(timing.query())) {
                    session.execute("DROP VIEW IF EXISTS revenue").close();
                }
            } catch (RuntimeException e) {
                out.println("EXPLAIN ANALYZE q" + timing.query() + where + " failed: " + e.getMessage());
            }
        }
    }

    private static String millis(OptionalDouble value) {
        return value.isPresent() ? String.format(Locale.ROOT, "%.1f", value.getAsDouble()) : "FAILED";
    }

    /** VmHWM of /proc/self/status (peak resident set), or -1 where there is no such file. */
    static long peakRss() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }
}
