package dev.quiver.bench;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.batch.Batches;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionConfig;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.QuiverExecutor;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.memory.ByteSize;
import dev.quiver.engine.memory.MemoryPool;
import dev.quiver.engine.spi.Catalog;
import dev.quiver.engine.spi.ScanRequest;
import dev.quiver.engine.spi.TableSource;
import dev.quiver.session.QuerySession;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * The full decode of lineitem: {@code SELECT min(c), max(c)} of each of its 16 columns, on both
 * engines, reported as rows/s and as uncompressed Arrow MiB/s, the Arrow bytes being the sum of
 * {@link Batches#sizeInBytes} over one full scan of the table in Quiver.
 */
public final class ScanTest {
    private ScanTest() {}

    /** What the scan test measured; a missing time means the engine failed (see {@code error}). */
    public record Result(long rows, long arrowBytes, OptionalDouble quiverMillis, OptionalDouble duckdbMillis, String error) {
        public Result {
            requireNonNull(quiverMillis, "quiverMillis is null");
            requireNonNull(duckdbMillis, "duckdbMillis is null");
            requireNonNull(error, "error is null");
        }
    }

    /** The query: min and max of every column of {@code table}. */
    public static String query(TableSource table) {
        return table.schema().getFields().stream().map(Field::getName)
                .map(column -> "min(" + column + ") AS min_" + column + ", max(" + column + ") AS max_" + column)
                .collect(Collectors.joining(", ", "SELECT ", " FROM " + table.name()));
    }

    /** Runs the scan test on {@code session} and (if not null) {@code duckdb}, and prints its lines. */
    static Result run(BenchOptions options, Catalog catalog, QuerySession session, DuckDbTpch duckdb, PrintStream out) {
        TableSource lineitem = catalog.table("lineitem")
                .orElseThrow(() -> new QuiverException(ErrorCode.TABLE_NOT_FOUND, "the scan test needs a lineitem table"));
        long[] size = arrowSize(lineitem, options.targetPartitions());
        String sql = query(lineitem);
        List<String> errors = new ArrayList<>();
        List<Double> quiverCpus = new ArrayList<>();
        OptionalDouble quiver = TpchBenchmark.time(options, errors, "quiver", cpuTimed(quiverCpus, () -> session.executeScript(sql).rowCount()));
        double quiverCpu = medianOfRuns(quiverCpus, options.warmups());
        List<Double> duckCpus = new ArrayList<>();
        OptionalDouble duck = duckdb == null ? OptionalDouble.empty()
                : TpchBenchmark.time(options, errors, "duckdb", cpuTimed(duckCpus, () -> duckdb.query(sql).rows().size()));
        double duckCpu = medianOfRuns(duckCpus, options.warmups());
        Result result = new Result(size[0], size[1], quiver, duck, String.join("; ", errors));
        out.printf(Locale.ROOT, "%nScan test: min and max of all %d lineitem columns, %d rows, %s as Arrow%n",
                lineitem.schema().getFields().size(), result.rows(), ByteSize.formatBytes(result.arrowBytes()));
        out.printf(Locale.ROOT, "%-7s %10s %12s %12s %12s%n", "engine", "ms", "Mrows/s", "MiB/s", "cpu ms/run");
        print(out, "quiver", result, quiver, quiverCpu);
        if (duckdb != null) {
            print(out, "duckdb", result, duck, duckCpu);
        }
        if (quiver.isPresent() && duck.isPresent()) {
            out.printf(Locale.ROOT, "ratio %.2fx (median process CPU per run: %.2fx)%n", quiver.getAsDouble() / duck.getAsDouble(), quiverCpu / duckCpu);
        }
        if (!result.error().isEmpty()) {
            out.println("scan test: " + result.error());
        }
        return result;
    }

    /**
     * @param cpuMillis median process CPU time of the measured runs (all threads, DuckDB's native
     *     ones included, GC too): steadier than wall time on a shared machine
     */
    private static void print(PrintStream out, String engine, Result result, OptionalDouble millis, double cpuMillis) {
        if (millis.isEmpty()) {
            out.printf(Locale.ROOT, "%-7s %10s%n", engine, "FAILED");
            return;
        }
        double seconds = millis.getAsDouble() / 1e3;
        out.printf(Locale.ROOT, "%-7s %10.1f %12.2f %12.1f %12.1f%n", engine, millis.getAsDouble(), result.rows() / seconds / 1e6,
                result.arrowBytes() / seconds / (1 << 20), cpuMillis);
    }

    /** {@code run}, adding the process CPU milliseconds of each execution to {@code cpuMillis}. */
    private static LongSupplier cpuTimed(List<Double> cpuMillis, LongSupplier run) {
        return () -> {
            long start = processCpuNanos();
            long result = run.getAsLong();
            cpuMillis.add((processCpuNanos() - start) / 1e6);
            return result;
        };
    }

    /** The median of the measured executions (after the warm-ups, whose JIT compilation would count for Quiver only); NaN if none. */
    private static double medianOfRuns(List<Double> cpuMillis, int warmups) {
        if (cpuMillis.size() <= warmups) {
            return Double.NaN;
        }
        return TpchBenchmark.median(cpuMillis.subList(warmups, cpuMillis.size()).stream().mapToDouble(Double::doubleValue).toArray());
    }

    /** CPU time of the whole process, or 0 where the JVM does not report it. */
    private static long processCpuNanos() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? Math.max(0, os.getProcessCpuTime()) : 0;
    }

    /** Rows and Arrow bytes of one full scan of {@code table} (all columns), partition by partition. */
    private static long[] arrowSize(TableSource table, int partitions) {
        long rows = 0;
        long bytes = 0;
        try (BufferAllocator allocator = new RootAllocator();
                QuiverExecutor executor = new QuiverExecutor("scan-size");
                TaskContext context = new TaskContext("scan-size", allocator, MemoryPool.unlimited(), executor,
                        new ExecutionConfig(ExecutionConfig.DEFAULT_BATCH_SIZE, partitions))) {
            ExecutionPlan scan = table.scan(ScanRequest.all(partitions));
            for (int p = 0; p < scan.outputPartitioning().partitionCount(); p++) {
                try (BatchStream stream = scan.execute(p, context)) {
                    for (VectorSchemaRoot next = stream.next(); next != null; next = stream.next()) {
                        try (VectorSchemaRoot batch = next) {
                            rows += batch.getRowCount();
                            bytes += Batches.sizeInBytes(batch);
                        }
                    }
                }
            }
        }
        return new long[] {rows, bytes};
    }
}
