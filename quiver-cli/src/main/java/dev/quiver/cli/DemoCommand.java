package dev.quiver.cli;

import dev.quiver.cli.format.ResultTable;
import dev.quiver.cli.format.Display;
import dev.quiver.cli.format.TableFormatter;
import dev.quiver.engine.memory.ByteSize;
import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.engine.source.tpch.TpchQueries;
import dev.quiver.session.QueryResult;
import dev.quiver.session.QuerySession;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code quiver demo}: a short tour over generated TPC-H data. Each query prints its name, its time,
 * its first rows and its physical plan; then Q3 runs again on local workers ({@link DistributedTour})
 * and a high-cardinality GROUP BY with and without exact consumer task counts ({@link ExactConsumerTour}).
 */
@Command(
        name = "demo",
        mixinStandardHelpOptions = true,
        description = "Generates TPC-H data (scale factor 0.1 by default) and runs a short tour of queries "
                + "with their timings, first rows and plans.")
final class DemoCommand implements Callable<Integer> {
    /** A query of the tour: its TPC-H number and what it asks. */
    record TourQuery(int number, String title) {
        String name() {
            return "Q" + number;
        }

        String sql() {
            return TpchQueries.query(number);
        }
    }

    static final List<TourQuery> TOUR = List.of(
            new TourQuery(1, "pricing summary report: scan and aggregate lineitem"),
            new TourQuery(3, "shipping priority: three-way join, top 10"),
            new TourQuery(5, "local supplier volume: six-way join"),
            new TourQuery(6, "forecasting revenue change: selective filter, global sum"),
            new TourQuery(18, "large volume customer: IN subquery over an aggregate"));

    private static final int ROWS_SHOWN = 5;
    /** Generated columns kept for the next query (about 100 MiB at SF 0.1); within the launcher's headroom. */
    private static final long CACHE_BYTES = 512L << 20;

    @Spec
    private CommandSpec spec;

    @Mixin
    private EngineOptions engine;

    @Option(names = "--sf", paramLabel = "SF", defaultValue = "0.1",
            description = "TPC-H scale factor (default: ${DEFAULT-VALUE}).")
    private double scaleFactor;

    @Option(names = "--measure-exact", hidden = true,
            description = "Instead of the tour: the smallest per-worker memory limit at which the last chapter's GROUP BY completes, advisory and exact.")
    private boolean measureExact;

    @Override
    public Integer call() {
        if (!(scaleFactor > 0)) {
            throw new ParameterException(spec.commandLine(),
                    "Invalid value for option '--sf': " + scaleFactor + " (the scale factor must be positive)");
        }
        PrintWriter out = spec.commandLine().getOut();
        if (measureExact) {
            ExactConsumerTour.measure(scaleFactor, engine.memoryLimit(), out);
            return 0;
        }
        String sf = formatScaleFactor(scaleFactor);
        out.printf(Locale.ROOT, "Quiver demo: TPC-H at scale factor %s, %d partitions, memory limit %s%n%n",
                sf, engine.partitions(), ByteSize.formatBytes(engine.memoryLimit()));
        out.flush();
        long tourStart = System.nanoTime();
        List<String> summary = new ArrayList<>();
        try (TpchCatalog catalog = TpchCatalog.cached(scaleFactor, CACHE_BYTES)) {
            Map<TourQuery, QueryResult> results = new LinkedHashMap<>();
            try (QuerySession session = engine.newSession(catalog)) {
                for (TourQuery query : TOUR) {
                    QueryResult result = runQuery(session, query, out);
                    results.put(query, result);
                    summary.add(summaryLine(query, result));
                }
            }
            TourQuery repeated = DistributedTour.query(TOUR);
            summary.add(DistributedTour.run(catalog, engine.memoryLimit(), repeated, results.get(repeated), out));
        }
        summary.add(ExactConsumerTour.run(scaleFactor, engine.memoryLimit(), out));
        Duration total = Duration.ofNanos(System.nanoTime() - tourStart);
        out.println("Summary (the first query also pays for JVM warm-up and data generation):");
        summary.forEach(line -> out.println("  " + line));
        out.printf(Locale.ROOT, "%d queries in %.1f s. Query the same data yourself:%n", summary.size(), total.toMillis() / 1000.0);
        out.printf(Locale.ROOT, "  ./quiver sql --tpch %s \"select n_name, count(*) from customer join nation on c_nationkey = n_nationkey group by n_name order by n_name\"%n", sf);
        out.printf(Locale.ROOT, "  ./quiver sql --tpch %s --local-workers 4 \"explain analyze select l_returnflag, count(*) from lineitem group by 1\"%n", sf);
        out.println("  (./quiver sql --help for files, stdin, CSV and JSON output, workers; ./quiver worker --help to start one)");
        out.flush();
        return 0;
    }

    /** Runs and prints one query. */
    private static QueryResult runQuery(QuerySession session, TourQuery query, PrintWriter out) {
        out.printf(Locale.ROOT, "== %s: %s%n", query.name(), query.title());
        out.flush();
        long start = System.nanoTime();
        QueryResult result = session.executeScript(query.sql());
        Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
        new TableFormatter(Display.DEFAULT.withMaxRows(ROWS_SHOWN)).write(ResultTable.of(result.columnNames(), result.schema(), result.rows()), elapsed, out);
        out.println("Plan:");
        for (String line : result.plan().split("\r?\n")) {
            out.println("  " + line);
        }
        out.println();
        out.flush();
        return result;
    }

    private static String summaryLine(TourQuery query, QueryResult result) {
        return summaryLine(query.name(), result.elapsed().toNanos() / 1e9, result.rowCount(), query.title());
    }

    /** One line of the closing summary: name, time, rows and what ran; the chapters on workers use it too. */
    static String summaryLine(String name, double seconds, long rows, String description) {
        return String.format(Locale.ROOT, "%-4s %8.3f s %6d %-4s  %s", name, seconds, rows, rows == 1 ? "row" : "rows", description);
    }

    static String formatScaleFactor(double scaleFactor) {
        return BigDecimal.valueOf(scaleFactor).stripTrailingZeros().toPlainString();
    }
}
