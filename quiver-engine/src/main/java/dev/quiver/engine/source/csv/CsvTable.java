package dev.quiver.engine.source.csv;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.source.files.FileListing;
import dev.quiver.engine.source.files.HivePartitions;
import dev.quiver.engine.source.files.HivePartitions.Partitioning;
import dev.quiver.engine.source.files.SplitAssigner;
import dev.quiver.engine.source.files.StatisticsPruner;
import dev.quiver.engine.source.files.TableProperties;
import dev.quiver.engine.source.storage.FileEntry;
import dev.quiver.engine.source.storage.Location;
import dev.quiver.engine.source.storage.Storage;
import dev.quiver.engine.source.storage.Storages;
import dev.quiver.engine.spi.ScanRequest;
import dev.quiver.engine.spi.TableSource;
import dev.quiver.engine.stats.ColumnStatistics;
import dev.quiver.engine.stats.Estimate;
import dev.quiver.engine.stats.Statistics;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A table stored as CSV files: one file, a directory (every {@code .csv} or {@code .tsv} file
 * below it) or a glob, possibly Hive-partitioned (the partition columns follow the files'
 * columns), all with the same columns. How lines are read ({@link CsvFormat}) comes from the
 * options ({@link CsvOptions}) or is sniffed from the first file ({@link CsvSniffer}: the
 * delimiter, whether there is a header). The schema is given, or inferred from the first file's
 * first {@code sample_size} rows ({@link CsvSchemaInference}). A scan split is one file, or a byte
 * range of about {@link #SPLIT_BYTES} of a larger file (a row belongs to the range it starts in)
 * unless the sample held a quoted line break. Row counts are estimates from the sampled row
 * width; they become exact only by reading.
 *
 * <p>A row with the wrong number of fields or a value that does not read as its column's type
 * fails the scan with a SOURCE_ERROR naming the file and the line, or with {@code ignore_errors}
 * is skipped and counted ({@code rows_skipped} in the scan's metrics).
 */
public final class CsvTable implements TableSource {
    public static final Set<String> EXTENSIONS = Set.of(".csv", ".tsv");
    /** Files larger than this are split into ranges of about this size, read by different partitions. */
    public static final long SPLIT_BYTES = 64L << 20;

    private final String name;
    private final String location;
    private final Schema schema;
    private final int fileColumns;
    private final CsvFormat format;
    private final List<CsvFile> files;
    private final Partitioning partitioning;
    private final double bytesPerRow;
    private final Statistics statistics;
    private final List<List<Integer>> uniqueKeys;

    private CsvTable(Storages storages, String name, String location, Schema fileSchema, CsvFormat format, List<CsvFile> files,
            Partitioning partitioning, CsvFirstFile.Sample sample, boolean splittable) {
        this.name = name;
        this.location = location;
        this.format = format;
        this.fileColumns = fileSchema.getFields().size();
        List<Field> fields = new ArrayList<>(fileSchema.getFields());
        fields.addAll(partitioning.columns());
        this.schema = new Schema(fields);
        this.files = List.copyOf(files);
        this.partitioning = partitioning;
        this.bytesPerRow = sample.bytesPerRow();
        long bytes = files.stream().mapToLong(CsvFile::bytes).sum();
        long rows = estimateRows(bytes);
        List<ColumnStatistics> columns = new ArrayList<>(CsvSample.statistics(storages, fileSchema, sample.columns(), files, rows, splittable, format));
        for (ColumnStatistics partition : partitioning.statistics(files.stream().map(CsvFile::path).distinct().toList())) {
            columns.add(new ColumnStatistics(Estimate.absent(), partition.distinctCount(), partition.min(), partition.max(), true));
        }
        this.statistics = new Statistics(Estimate.inexact(rows), Estimate.inexact(bytes), columns);
        this.uniqueKeys = FileListing.isPattern(location) ? List.of() : TableProperties.uniqueKeys(storages, Location.of(location), schema);
    }

    /** Opens a CSV file (or every {@code .csv} file below a directory) whose first line is a header. */
    public static CsvTable open(String name, Path path, Optional<Schema> schema) {
        return open(name, path, schema, SPLIT_BYTES);
    }

    static CsvTable open(String name, Path path, Optional<Schema> schema, long splitBytes) {
        requireNonNull(path, "path is null");
        CsvOptions headed = new CsvOptions(Optional.empty(), '"', '"', Optional.of(true), 0, List.of(""), false,
                CsvOptions.DEFAULT_SAMPLE_ROWS, false, CsvOptions.DEFAULTS.files());
        return open(Storages.LOCAL, name, List.of(path.toString()), schema, headed, splitBytes);
    }

    /**
     * Opens the CSV files of {@code locations} (files, directories, globs).
     *
     * @param schema the columns, or empty to infer them from the first file
     * @throws QuiverException SOURCE_ERROR naming the file for a missing path, a pattern matching
     *     nothing, an empty or binary file, a header whose number of columns differs from the
     *     schema's, a row with the wrong number of fields in the sample
     */
    public static CsvTable open(Storages storages, String name, List<String> locations, Optional<Schema> schema, CsvOptions options) {
        return open(storages, name, locations, schema, options, SPLIT_BYTES);
    }

    static CsvTable open(Storages storages, String name, List<String> locations, Optional<Schema> schema, CsvOptions options, long splitBytes) {
        requireNonNull(storages, "storages is null");
        requireNonNull(name, "name is null");
        requireNonNull(schema, "schema is null");
        requireNonNull(options, "options is null");
        if (options.files().unionByName()) {
            throw new QuiverException(ErrorCode.NOT_SUPPORTED, "union_by_name is not supported for CSV files; read files with the same columns");
        }
        List<FileEntry> listed = FileListing.list(storages, locations, EXTENSIONS, "CSV");
        List<Location> paths = listed.stream().map(FileEntry::location).toList();
        CsvFirstFile first = CsvFirstFile.read(storages.of(paths.get(0)), paths.get(0), schema, options);
        Schema fileSchema = first.schema();
        Set<String> fileNames = fileSchema.getFields().stream().map(f -> f.getName().toLowerCase(Locale.ROOT)).collect(Collectors.toSet());
        Partitioning partitioning = HivePartitions.of(paths, options.files().hivePartitioning(), options.files().hiveTypesAutocast()).without(fileNames);
        List<CsvFile> files = new ArrayList<>();
        for (FileEntry file : listed) {
            if (file != listed.get(0)) {
                checkHeader(storages.of(file.location()), file.location(), first.format(), fileSchema);
            }
            long size = file.size();
            long ranges = first.splittable() ? Math.max(1, size / splitBytes) : 1;
            List<Object> values = partitioning.valuesOf(file.location());
            for (long r = 0; r < ranges; r++) {
                files.add(new CsvFile(file.location(), size * r / ranges, r == ranges - 1 ? size : size * (r + 1) / ranges, values));
            }
        }
        return new CsvTable(storages, name, String.join(", ", locations), fileSchema, first.format(), files, partitioning, first.sample(), first.splittable());
    }

    /** A later file's first row: its header must have the table's number of columns (so must its first row without one). */
    private static void checkHeader(Storage storage, Location file, CsvFormat format, Schema schema) {
        try (CsvRowReader reader = CsvFile.open(storage, file, format)) {
            for (long row = 0; row < format.skipRows(); row++) {
                reader.nextRow();
            }
            if (!reader.nextRow()) {
                if (format.header()) {
                    throw new QuiverException(ErrorCode.SOURCE_ERROR, "CSV file " + file + " is empty: it needs a header line naming the columns");
                }
                return;
            }
            int columns = schema.getFields().size();
            if (reader.fieldCount() != columns && !(format.ignoreErrors() && !format.header())) {
                throw new QuiverException(ErrorCode.SOURCE_ERROR, "CSV file " + file + " line " + reader.rowLine() + ": the "
                        + (format.header() ? "header" : "first row") + " has " + reader.fieldCount() + " columns, but the table has " + columns
                        + " (" + String.join(", ", schema.getFields().stream().map(Field::getName).toList()) + ")");
            }
        }
    }

    private long estimateRows(long bytes) {
        return bytesPerRow <= 0 ? 0 : Math.round(bytes / bytesPerRow);
    }

    @Override
    public String name() {
        return name;
    }

    /** The location as given (paths or patterns, comma-separated). */
    public String location() {
        return location;
    }

    public List<Location> files() {
        return files.stream().map(CsvFile::path).distinct().toList();
    }

    /** How the files' lines are read: given or sniffed delimiter, header, NULL strings. */
    public CsvFormat format() {
        return format;
    }

    /** The Hive partition columns (the last columns of the schema), empty when the table is not partitioned. */
    public List<Field> partitionColumns() {
        return partitioning.columns();
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
        List<CsvFile> kept = files.stream()
                .filter(file -> !StatisticsPruner.canSkipPartition(request.filters(), fileColumns, file.partitionValues())).toList();
        List<List<CsvFile>> partitions = SplitAssigner.assign(kept, CsvFile::bytes, request.targetPartitions());
        return new CsvScanExec(name, schema, projection, partitions, bytesPerRow, format);
    }


    @Override
    public String toString() {
        return "csv(" + location + ")." + name;
    }
}
