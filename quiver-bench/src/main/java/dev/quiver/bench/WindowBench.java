package dev.quiver.bench;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.memory.ByteSize;
import dev.quiver.engine.operator.sort.SortExec;
import dev.quiver.engine.operator.window.WindowExec;
import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.session.QueryHandle;
import dev.quiver.session.QuerySession;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * Window-function throughput: {@code sum(l_quantity) OVER (PARTITION BY l_orderkey ORDER BY
 * l_linenumber)} over all of lineitem (6 M rows at SF 1), on Quiver and on DuckDB in the same run,
 * with {@link TpchBenchmark}'s setup: generated tables (lineitem only, kept in the catalog cache),
 * DuckDB in-process on in-memory tables loaded from the same scans with as many threads as Quiver
 * has partitions, warm-ups then the median of the measured runs.
 *
 * <p>Both engines consume the window's output the same way, through an aggregate over it
 * ({@link #QUERY}), so that neither pays for moving 6 M rows to the client; their two result values
 * are checked equal. Quiver's time covers the whole plan (scan, repartition, sort, window, the
 * aggregate); the operator times of its last run show how much of it WindowExec and the sort took.
 * The load average is printed before and after: on a shared machine it says how far to trust the
 * figures.
 */
public final class WindowBench {
    /** The window under test. */
    public static final String WINDOW = "sum(l_quantity) over (partition by l_orderkey order by l_linenumber)";
    /** The measured query: the window over lineitem, its output consumed by one aggregate on both engines. */
    public static final String QUERY = "select count(*) as row_count, sum(w) as total from (select " + WINDOW + " as w from lineitem) x";

    private WindowBench() {}

    /**
     * What the run measured; a missing time means the engine failed it (see {@code error}).
     *
     * @param rows the rows the window ran over (lineitem's)
     * @param windowMillis WindowExec's own compute time in Quiver's last run, summed over partitions
     * @param sortMillis the compute time of the sort below it, likewise
     */
    public record Result(long rows, OptionalDouble quiverMillis, OptionalDouble duckdbMillis, double windowMillis, double sortMillis,
            String loadBefore, String loadAfter, String error) {
        public Result {
            requireNonNull(quiverMillis, "quiverMillis is null");
            requireNonNull(duckdbMillis, "duckdbMillis is null");
            requireNonNull(loadBefore, "loadBefore is null");
            requireNonNull(loadAfter, "loadAfter is null");
            requireNonNull(error, "error is null");
        }

        /** Quiver's time over DuckDB's, when both ran. */
        public OptionalDouble ratio() {
            return TpchBenchmark.ratio(quiverMillis, duckdbMillis);
        }
    }

    public static void main(String[] args) {
        run(BenchOptions.parse(args), System.out);
    }

    /** Runs the window benchmark (its {@code queries} are ignored), printing its lines to {@code out}. */
    public static Result run(BenchOptions options, PrintStream out) {
        String loadBefore = loadAverage();
        out.println("Window benchmark: " + WINDOW + " over lineitem, sf=" + options.scaleFactor() + ", partitions=" + options.targetPartitions()
                + ", memory=" + ByteSize.formatBytes(options.memoryLimit()) + ", warmups=" + options.warmups() + ", runs=" + options.runs()
                + (options.duckdb() ? ", duckdb threads=" + options.duckdbThreads() : ", no duckdb"));
        out.println("JVM " + Runtime.version() + ", " + Runtime.getRuntime().availableProcessors() + " cores; load average before: " + loadBefore);
        out.println("query (both engines): " + QUERY);
        try (TpchCatalog catalog = TpchCatalog.cached(options.scaleFactor(), options.cacheLimit());
                QuerySession session = QuerySession.builder().catalog(catalog).targetPartitions(options.targetPartitions())
                        .memoryLimit(options.memoryLimit()).build()) {
            long loadStart = System.nanoTime();
            try (DuckDbTpch duckdb = options.duckdb() ? DuckDbTpch.load(catalog, options.duckdbThreads(), List.of("lineitem")) : null) {
                if (duckdb != null) {
                    out.printf(Locale.ROOT, "lineitem generated and loaded into DuckDB in %.1f s%n", (System.nanoTime() - loadStart) / 1e9);
                }
                Result result = measure(options, session, duckdb, loadBefore);
                print(out, result);
                return result;
            }
        }
    }

    private static Result measure(BenchOptions options, QuerySession session, DuckDbTpch duckdb, String loadBefore) {
        List<String> errors = new ArrayList<>();
        ExecutionPlan[] lastPlan = new ExecutionPlan[1];
        List<Object> quiverRow = new ArrayList<>();
        OptionalDouble quiver = TpchBenchmark.time(options, errors, "quiver", () -> {
            try (QueryHandle handle = session.execute(QUERY)) {
                List<Object> row = handle.collect().rows().get(0);
                lastPlan[0] = handle.plan();
                quiverRow.clear();
                quiverRow.addAll(row);
                return 1;
            }
        });
        List<Object> duckdbRow = new ArrayList<>();
        OptionalDouble duck = duckdb == null ? OptionalDouble.empty() : TpchBenchmark.time(options, errors, "duckdb", () -> {
            duckdbRow.clear();
            duckdbRow.addAll(duckdb.query(QUERY).rows().get(0));
            return 1;
        });
        if (quiver.isPresent() && duck.isPresent() && !sameValues(quiverRow, duckdbRow)) {
            errors.add("results differ: quiver " + quiverRow + ", duckdb " + duckdbRow);
        }
        long rows = quiverRow.isEmpty() ? -1 : ((Number) quiverRow.get(0)).longValue();
        double window = lastPlan[0] == null ? Double.NaN : computeMillis(lastPlan[0], WindowExec.class);
        double sort = lastPlan[0] == null ? Double.NaN : computeMillis(lastPlan[0], SortExec.class);
        return new Result(rows, quiver, duck, window, sort, loadBefore, loadAverage(), String.join("; ", errors));
    }

    /** Equal counts and equal sums (as numbers: the engines may give the sum different scales). */
    private static boolean sameValues(List<Object> quiver, List<Object> duckdb) {
        if (quiver.size() != duckdb.size()) {
            return false;
        }
        for (int i = 0; i < quiver.size(); i++) {
            Object a = quiver.get(i);
            Object b = duckdb.get(i);
            boolean equal = a instanceof Number x && b instanceof Number y ? new BigDecimal(x.toString()).compareTo(new BigDecimal(y.toString())) == 0
                    : Objects.equals(a, b);
            if (!equal) {
                return false;
            }
        }
        return true;
    }

    /** The compute time, in ms summed over partitions, of the plan's nodes of {@code type}. */
    private static double computeMillis(ExecutionPlan plan, Class<? extends ExecutionPlan> type) {
        double millis = type.isInstance(plan) ? plan.metrics().elapsedComputeNanos() / 1e6 : 0;
        for (ExecutionPlan child : plan.children()) {
            millis += computeMillis(child, type);
        }
        return millis;
    }

    private static void print(PrintStream out, Result result) {
        out.printf(Locale.ROOT, "%-7s %10s %12s%n", "engine", "ms", "Mrows/s");
        printEngine(out, "quiver", result.rows(), result.quiverMillis());
        printEngine(out, "duckdb", result.rows(), result.duckdbMillis());
        result.ratio().ifPresent(ratio -> out.printf(Locale.ROOT, "ratio quiver/duckdb %.2fx%n", ratio));
        if (!Double.isNaN(result.windowMillis())) {
            out.printf(Locale.ROOT, "quiver's last run: WindowExec %.1f ms, SortExec %.1f ms of compute (summed over partitions)%n",
                    result.windowMillis(), result.sortMillis());
        }
        out.println("load average after: " + result.loadAfter());
        if (!result.error().isEmpty()) {
            out.println("window benchmark: " + result.error());
        }
        out.flush();
    }

    private static void printEngine(PrintStream out, String engine, long rows, OptionalDouble millis) {
        if (millis.isEmpty()) {
            out.printf(Locale.ROOT, "%-7s %10s%n", engine, "-");
            return;
        }
        out.printf(Locale.ROOT, "%-7s %10.1f %12.2f%n", engine, millis.getAsDouble(), rows / (millis.getAsDouble() / 1e3) / 1e6);
    }

    /** The 1, 5 and 15 minute load averages of /proc/loadavg, else the JVM's 1-minute figure. */
    static String loadAverage() {
        try {
            String[] fields = Files.readString(Path.of("/proc/loadavg"), StandardCharsets.US_ASCII).strip().split("\\s+");
            if (fields.length >= 3) {
                return fields[0] + " " + fields[1] + " " + fields[2];
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: fall through
        }
        double oneMinute = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        return oneMinute < 0 ? "unknown" : String.format(Locale.ROOT, "%.2f", oneMinute);
    }
}
