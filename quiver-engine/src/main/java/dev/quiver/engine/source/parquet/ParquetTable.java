package dev.quiver.engine.source.parquet;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.source.files.FileListing;
import dev.quiver.engine.source.files.HivePartitions;
import dev.quiver.engine.source.files.HivePartitions.Partitioning;
import dev.quiver.engine.source.files.MultiFileOptions;
import dev.quiver.engine.source.files.SplitAssigner;
import dev.quiver.engine.source.files.StatisticsPruner;
import dev.quiver.engine.source.files.TableProperties;
import dev.quiver.engine.source.storage.FileEntry;
import dev.quiver.engine.source.storage.Location;
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
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A table stored as Parquet files: one file, a directory (every {@code .parquet} file below it) or
 * a glob ({@link FileListing}), possibly Hive-partitioned ({@link HivePartitions}: the partition
 * columns follow the files' columns). Scans split the table at row-group granularity, read only
 * the projected columns, skip the files of partitions the pushed filters rule out without opening
 * them, and skip row groups whose footer min/max statistics rule the filters out.
 *
 * <p>Footers: an unpartitioned table reads every footer when it opens (the schema, exact row
 * counts and column statistics come from there). A partitioned table reads only the first file's
 * footer then (for the schema), and each other file's footer when a scan first needs that file,
 * so that a filter on the partition columns opens only the matching files; its statistics are
 * estimates until then. With {@code union_by_name} every footer is read at opening.
 */
public final class ParquetTable implements TableSource {
    public static final Set<String> EXTENSIONS = Set.of(".parquet");

    private final String name;
    private final String location;
    private final Schema schema;
    private final int fileColumns;
    private final Storages storages;
    private final List<FileEntry> files;
    private final Partitioning partitioning;
    private final boolean unionByName;
    private final ConcurrentMap<Location, List<ParquetRowGroup>> rowGroups = new ConcurrentHashMap<>();
    private final Statistics statistics;
    private final List<List<Integer>> uniqueKeys;

    private ParquetTable(Storages storages, String name, String location, Schema fileSchema, List<FileEntry> files, Partitioning partitioning,
            List<ParquetFooter> footers, boolean unionByName) {
        this.storages = storages;
        this.name = name;
        this.location = location;
        this.files = List.copyOf(files);
        this.partitioning = partitioning;
        this.unionByName = unionByName;
        this.fileColumns = fileSchema.getFields().size();
        List<Field> fields = new ArrayList<>(fileSchema.getFields());
        fields.addAll(partitioning.columns());
        this.schema = new Schema(fields);
        for (ParquetFooter footer : footers) {
            rowGroups.put(footer.file(), footer.rowGroups(schema, fileColumns, partitioning.valuesOf(footer.file())));
        }
        this.statistics = footers.size() == files.size() ? exactStatistics() : estimatedStatistics(footers.get(0));
        this.uniqueKeys = FileListing.isPattern(location) || files.size() == 1 && files.get(0).location().toString().equals(location)
                ? List.of() : TableProperties.uniqueKeys(storages, Location.of(location), schema);
    }

    /** Opens a Parquet file, or every {@code .parquet} file below a directory, with the default options. */
    public static ParquetTable open(String name, Path path) {
        requireNonNull(path, "path is null");
        return open(Storages.LOCAL, name, List.of(path.toString()), MultiFileOptions.DEFAULTS);
    }

    /**
     * Opens the Parquet files of {@code locations} (files, directories, globs).
     *
     * @throws QuiverException SOURCE_ERROR naming the path for a missing path, a pattern matching
     *     nothing, an empty directory, a file that is not readable Parquet, files whose columns
     *     differ (without {@code union_by_name}); NOT_SUPPORTED for a column type Quiver cannot read
     */
    public static ParquetTable open(Storages storages, String name, List<String> locations, MultiFileOptions options) {
        requireNonNull(storages, "storages is null");
        requireNonNull(name, "name is null");
        requireNonNull(options, "options is null");
        List<FileEntry> files = FileListing.list(storages, locations, EXTENSIONS, "Parquet");
        List<Location> paths = files.stream().map(FileEntry::location).toList();
        Partitioning partitioning = HivePartitions.of(paths, options.hivePartitioning(), options.hiveTypesAutocast());
        boolean lazy = !partitioning.columns().isEmpty() && !options.unionByName();
        List<ParquetFooter> footers = new ArrayList<>();
        for (FileEntry file : lazy ? files.subList(0, 1) : files) {
            footers.add(ParquetFooter.read(storages.of(file.location()), file));
        }
        Schema fileSchema = options.unionByName() ? ParquetSchemaUnion.byName(footers) : ParquetSchemaUnion.same(footers);
        if (lazy) {
            // later files may hold NULLs where the first one did not
            fileSchema = new Schema(fileSchema.getFields().stream().map(ParquetSchemaUnion::nullable).toList());
        }
        Set<String> fileNames = fileSchema.getFields().stream().map(f -> f.getName().toLowerCase(Locale.ROOT)).collect(Collectors.toSet());
        String location = String.join(", ", locations);
        return new ParquetTable(storages, name, location, fileSchema, files, partitioning.without(fileNames), footers, options.unionByName());
    }

    private Statistics exactStatistics() {
        List<ParquetRowGroup> all = files.stream().flatMap(file -> rowGroups.get(file.location()).stream()).toList();
        List<Integer> columns = IntStream.range(0, schema.getFields().size()).boxed().toList();
        long rows = all.stream().mapToLong(ParquetRowGroup::rowCount).sum();
        long bytes = all.stream().mapToLong(rowGroup -> rowGroup.bytes(columns)).sum();
        return new Statistics(Estimate.exact(rows), Estimate.inexact(bytes), ParquetStatistics.merge(all, columns));
    }

    /** From the first file, scaled by the other files' sizes; exact bounds of the partition columns. */
    private Statistics estimatedStatistics(ParquetFooter first) {
        long firstBytes = Math.max(1, files.get(0).size());
        long totalBytes = files.stream().mapToLong(FileEntry::size).sum();
        long rows = Math.round((double) first.rowCount() * totalBytes / firstBytes);
        List<Integer> columns = IntStream.range(0, schema.getFields().size()).boxed().toList();
        long bytes = Math.round((double) rowGroups.get(first.file()).stream().mapToLong(rowGroup -> rowGroup.bytes(columns)).sum()
                * totalBytes / firstBytes);
        List<ColumnStatistics> stats = new ArrayList<>();
        for (int c = 0; c < fileColumns; c++) {
            stats.add(ColumnStatistics.unknown());
        }
        for (ColumnStatistics partition : partitioning.statistics(files.stream().map(FileEntry::location).toList())) {
            stats.add(new ColumnStatistics(Estimate.absent(), partition.distinctCount(), partition.min(), partition.max(), true));
        }
        return new Statistics(Estimate.inexact(rows), Estimate.inexact(bytes), stats);
    }

    /** The row groups of one file, its footer read on first use. */
    private List<ParquetRowGroup> rowGroups(FileEntry file) {
        return rowGroups.computeIfAbsent(file.location(), location -> {
            ParquetFooter footer = ParquetFooter.read(storages.of(location), file);
            ParquetSchemaUnion.checkMatches(footer, schema, fileColumns, files.get(0).location());
            return footer.rowGroups(schema, fileColumns, partitioning.valuesOf(location));
        });
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
        return files.stream().map(FileEntry::location).toList();
    }

    /** Row groups of all files, in file order; reads every footer not read yet. */
    public int rowGroupCount() {
        return files.stream().mapToInt(file -> rowGroups(file).size()).sum();
    }

    /** The number of files whose footers have been read (all of them, unless the table is Hive-partitioned). */
    public int footersRead() {
        return rowGroups.size();
    }

    /** The Hive partition columns (the last columns of the schema), empty when the table is not partitioned. */
    public List<Field> partitionColumns() {
        return partitioning.columns();
    }

    public boolean unionByName() {
        return unionByName;
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
        List<ParquetRowGroup> candidates = new ArrayList<>();
        for (FileEntry file : files) {
            if (!StatisticsPruner.canSkipPartition(request.filters(), fileColumns, partitioning.valuesOf(file.location()))) {
                candidates.addAll(rowGroups(file));
            }
        }
        List<ParquetRowGroup> kept = candidates.stream()
                .filter(rowGroup -> !StatisticsPruner.canSkip(request.filters(), rowGroup.columns(), rowGroup.rowCount()))
                .toList();
        List<List<ParquetRowGroup>> partitions = SplitAssigner.assign(kept, rowGroup -> weight(rowGroup, projection), request.targetPartitions());
        return new ParquetScanExec(name, schema, projection, partitions, request.filters(), files.size(), candidates.size());
    }


    /** Bytes to read, or rows when no column with bytes is read ({@code count(*)}, partition columns only). */
    private static long weight(ParquetRowGroup rowGroup, List<Integer> projection) {
        long bytes = rowGroup.bytes(projection);
        return bytes == 0 ? rowGroup.rowCount() : bytes;
    }

    @Override
    public String toString() {
        return "parquet(" + location + ")." + name;
    }
}
