package dev.quiver.engine.source.csv;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.source.files.DataFiles;
import dev.quiver.engine.source.files.SplitAssigner;
import dev.quiver.engine.source.files.TableProperties;
import dev.quiver.engine.spi.ScanRequest;
import dev.quiver.engine.spi.TableSource;
import dev.quiver.engine.stats.Estimate;
import dev.quiver.engine.stats.Statistics;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.IntStream;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A table stored as one CSV file with a header line, or a directory of {@code .csv} files with the
 * same columns. The schema is given, or inferred from the first file's first
 * {@value #SAMPLE_ROWS} rows (see {@link CsvSchemaInference}). A scan split is one file, or a byte
 * range of about {@link #SPLIT_BYTES} of a larger file (a row belongs to the range it starts in)
 * unless the sample held a quoted line break. Row counts are estimates from the sampled row
 * width; they become exact only by reading.
 *
 * <p>A row with the wrong number of fields or a value that does not read as its column's type
 * fails the scan with a SOURCE_ERROR naming the file and the line.
 */
public final class CsvTable implements TableSource {
    public static final Set<String> EXTENSIONS = Set.of(".csv");
    static final int SAMPLE_ROWS = 10_000;
    /** Files larger than this are split into ranges of about this size, read by different partitions. */
    public static final long SPLIT_BYTES = 64L << 20;

    private final String name;
    private final Path path;
    private final Schema schema;
    private final List<CsvFile> files;
    private final double bytesPerRow;
    private final Statistics statistics;
    private final List<List<Integer>> uniqueKeys;

    private CsvTable(String name, Path path, Schema schema, List<CsvFile> files, Sample sample, boolean splittable) {
        this.name = name;
        this.uniqueKeys = TableProperties.uniqueKeys(path, schema);
        this.path = path;
        this.schema = schema;
        this.files = List.copyOf(files);
        this.bytesPerRow = sample.bytesPerRow();
        long bytes = files.stream().mapToLong(CsvFile::bytes).sum();
        long rows = estimateRows(bytes);
        this.statistics = new Statistics(Estimate.inexact(rows), Estimate.inexact(bytes), CsvSample.statistics(schema, sample.columns(), files, rows, splittable));
    }

    /**
     * Opens a CSV file or a directory of {@code .csv} files, each with a header line.
     *
     * @param schema the columns, or empty to infer them from the first file
     * @throws QuiverException SOURCE_ERROR naming the file for a missing path, an empty or binary
     *     file, a header whose number of columns differs from the schema's
     */
    public static CsvTable open(String name, Path path, Optional<Schema> schema) {
        return open(name, path, schema, SPLIT_BYTES);
    }

    static CsvTable open(String name, Path path, Optional<Schema> schema, long splitBytes) {
        requireNonNull(name, "name is null");
        requireNonNull(path, "path is null");
        requireNonNull(schema, "schema is null");
        List<Path> paths = DataFiles.list(path, EXTENSIONS, "CSV");
        List<CsvFile> files = new ArrayList<>(paths.size());
        Schema tableSchema = null;
        Sample tableSample = null;
        boolean splittable = true;
        for (Path file : paths) {
            try (CsvRowReader reader = CsvFile.open(file)) {
                List<String> header = header(reader);
                if (tableSchema == null) {
                    Sample sample = sample(reader, header.size());
                    tableSample = sample;
                    // a quoted line break would make a line start inside a field: such files are read whole
                    splittable = !reader.sawQuotedLineBreak();
                    tableSchema = schema.orElseGet(() -> new Schema(CsvSchemaInference.infer(CsvSchemaInference.columnNames(header), sample.columns())));
                    tableSchema.getFields().forEach(field -> CsvColumnKind.of(field, file.toString()));
                }
                if (header.size() != tableSchema.getFields().size()) {
                    throw new QuiverException(ErrorCode.SOURCE_ERROR, "CSV file " + file + " line 1: the header has " + header.size()
                            + " columns, but the table has " + tableSchema.getFields().size() + " (" + columnList(tableSchema) + ")");
                }
            }
            long size = DataFiles.size(file);
            long ranges = splittable ? Math.max(1, size / splitBytes) : 1;
            for (long r = 0; r < ranges; r++) {
                files.add(new CsvFile(file, size * r / ranges, r == ranges - 1 ? size : size * (r + 1) / ranges));
            }
        }
        return new CsvTable(name, path, tableSchema, files, tableSample, splittable);
    }

    private static List<String> header(CsvRowReader reader) {
        if (!reader.nextRow()) {
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "CSV file " + reader.file() + " is empty: it needs a header line naming the columns");
        }
        List<String> header = reader.values();
        checkText(reader, header);
        return header.stream().map(value -> value == null ? "" : value).toList();
    }

    private record Sample(List<List<String>> columns, double bytesPerRow) {}

    private static Sample sample(CsvRowReader reader, int columnCount) {
        List<List<String>> columns = new ArrayList<>(columnCount);
        for (int c = 0; c < columnCount; c++) {
            columns.add(new ArrayList<>());
        }
        long bytes = 0;
        int rows = 0;
        while (rows < SAMPLE_ROWS && reader.nextRow()) {
            if (reader.fieldCount() != columnCount) {
                throw reader.rowError("expected " + columnCount + " fields as in the header, found " + reader.fieldCount());
            }
            List<String> values = reader.values();
            checkText(reader, values);
            for (int c = 0; c < columnCount; c++) {
                columns.get(c).add(values.get(c));
            }
            bytes += reader.rowBytes();
            rows++;
        }
        return new Sample(columns, rows == 0 ? 0 : (double) bytes / rows);
    }

    /** A binary file shows itself by NUL characters, which no CSV text holds. */
    private static void checkText(CsvRowReader reader, List<String> values) {
        for (String value : values) {
            if (value != null && value.indexOf('\0') >= 0) {
                throw reader.rowError("holds NUL bytes; it is not a text CSV file");
            }
        }
    }

    private static String columnList(Schema schema) {
        return String.join(", ", schema.getFields().stream().map(Field::getName).toList());
    }

    private long estimateRows(long bytes) {
        return bytesPerRow <= 0 ? 0 : Math.round(bytes / bytesPerRow);
    }

    @Override
    public String name() {
        return name;
    }

    public Path path() {
        return path;
    }

    public List<Path> files() {
        return files.stream().map(CsvFile::path).distinct().toList();
    }

    @Override
    public Schema schema() {
        return schema;
    }

    /** The keys declared in the table directory's {@value TableProperties#FILE_NAME}, if any. */
    @Override
    public List<List<Integer>> uniqueKeys() {
        return uniqueKeys;
    }

    @Override
    public Statistics statistics() {
        return statistics;
    }

    @Override
    public ExecutionPlan scan(ScanRequest request) {
        List<Integer> projection = request.projection()
                .orElseGet(() -> IntStream.range(0, schema.getFields().size()).boxed().toList());
        List<List<CsvFile>> partitions = SplitAssigner.assign(files, CsvFile::bytes, request.targetPartitions());
        return new CsvScanExec(name, schema, projection, partitions, bytesPerRow);
    }

    @Override
    public String toString() {
        return "csv(" + path + ")." + name;
    }
}
