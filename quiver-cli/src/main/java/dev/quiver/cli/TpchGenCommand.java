package dev.quiver.cli;

import dev.quiver.engine.execution.QuiverExecutor;
import dev.quiver.engine.memory.ByteSize;
import dev.quiver.engine.source.files.FileFormat;
import dev.quiver.engine.source.files.TpchDatasetWriter;
import dev.quiver.engine.source.files.TpchDatasetWriter.WrittenTable;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code quiver tpch-gen}: writes the TPC-H tables as Parquet, Arrow IPC or CSV files. */
@Command(
        name = "tpch-gen",
        mixinStandardHelpOptions = true,
        description = {
            "Writes the eight TPC-H tables at a scale factor to DIR/<table>/ as Parquet, Arrow IPC or CSV files, "
                    + "several files at once, and prints what it wrote. Query them with quiver sql --tpch-dir DIR.",
        },
        footer = {"", "Examples:", "  quiver tpch-gen --sf 1 --format parquet --out /tmp/tpch-sf1",
            "  quiver tpch-gen --sf 0.1 --format csv --out data --files-per-table 4"})
final class TpchGenCommand implements Callable<Integer> {
    @Spec
    private CommandSpec spec;

    @Option(names = "--sf", paramLabel = "SF", required = true, description = "TPC-H scale factor, e.g. 0.01, 1 or 10.")
    private double scaleFactor;

    @Option(names = "--format", paramLabel = "FORMAT", required = true,
            description = "File format: parquet, arrow or csv.")
    private String format;

    @Option(names = "--out", paramLabel = "DIR", required = true, description = "Output directory (created if missing).")
    private Path out;

    @Option(names = "--files-per-table", paramLabel = "N", defaultValue = "1",
            description = "Files per table; small tables (nation, region) get one (default: ${DEFAULT-VALUE}).")
    private int filesPerTable;

    @Option(names = "--threads", paramLabel = "N",
            description = "Files written at once (default: the number of cores).")
    private Integer threads;

    @Override
    public Integer call() {
        if (!(scaleFactor > 0)) {
            throw new ParameterException(spec.commandLine(), "Invalid value for option '--sf': " + scaleFactor + " (must be positive)");
        }
        if (filesPerTable < 1) {
            throw new ParameterException(spec.commandLine(), "Invalid value for option '--files-per-table': " + filesPerTable + " (must be at least 1)");
        }
        int parallelism = threads == null ? Runtime.getRuntime().availableProcessors() : threads;
        if (parallelism < 1) {
            throw new ParameterException(spec.commandLine(), "Invalid value for option '--threads': " + parallelism + " (must be at least 1)");
        }
        FileFormat fileFormat;
        try {
            fileFormat = FileFormat.fromName(format);
        } catch (RuntimeException e) {
            throw new ParameterException(spec.commandLine(), "Invalid value for option '--format': '" + format + "' (use parquet, arrow or csv)");
        }
        long start = System.nanoTime();
        List<WrittenTable> tables;
        try (BufferAllocator allocator = new RootAllocator(); QuiverExecutor executor = new QuiverExecutor("tpch-gen")) {
            tables = TpchDatasetWriter.write(scaleFactor, fileFormat, out, filesPerTable, parallelism, executor, allocator);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        print(tables, fileFormat, seconds);
        return 0;
    }

    private void print(List<WrittenTable> tables, FileFormat fileFormat, double seconds) {
        PrintWriter printer = spec.commandLine().getOut();
        printer.printf(Locale.ROOT, "%-10s %6s %12s %12s %9s  %s%n", "table", "files", "rows", "bytes", "seconds", "directory");
        long rows = 0;
        long bytes = 0;
        int files = 0;
        for (WrittenTable table : tables) {
            printer.printf(Locale.ROOT, "%-10s %6d %12d %12s %9.2f  %s%n", table.table(), table.files().size(), table.rows(),
                    ByteSize.formatBytes(table.bytes()), table.seconds(), table.directory());
            rows += table.rows();
            bytes += table.bytes();
            files += table.files().size();
        }
        printer.printf(Locale.ROOT, "Wrote %d %s files, %d rows, %s in %.2f s (SF %s) to %s%n", files,
                fileFormat.name().toLowerCase(Locale.ROOT), rows, ByteSize.formatBytes(bytes), seconds, formatScale(), out);
        printer.flush();
    }

    private String formatScale() {
        return scaleFactor == Math.rint(scaleFactor) ? Long.toString((long) scaleFactor) : Double.toString(scaleFactor);
    }
}
