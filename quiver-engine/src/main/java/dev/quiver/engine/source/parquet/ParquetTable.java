package dev.quiver.engine.source.parquet;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.source.files.TableProperties;
import dev.quiver.engine.spi.ScanRequest;
import dev.quiver.engine.spi.TableSource;
import dev.quiver.engine.stats.ColumnStatistics;
import dev.quiver.engine.stats.Estimate;
import dev.quiver.engine.stats.Statistics;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;

/**
 * A table stored as one Parquet file or a directory of {@code .parquet} files with one schema.
 * Opening reads every footer once: the schema, the row groups and their statistics come from
 * there. Scans split the table at row-group granularity, read only the projected columns and skip
 * row groups whose min/max statistics rule out the pushed filters.
 */
public final class ParquetTable implements TableSource {
    private final String name;
    private final Path path;
    private final Schema schema;
    private final List<Path> files;
    private final List<ParquetRowGroup> rowGroups;
    private final Statistics statistics;
    private final List<List<Integer>> uniqueKeys;

    private ParquetTable(String name, Path path, Schema schema, List<Path> files, List<ParquetRowGroup> rowGroups) {
        this.name = name;
        this.uniqueKeys = TableProperties.uniqueKeys(path, schema);
        this.path = path;
        this.schema = schema;
        this.files = List.copyOf(files);
        this.rowGroups = List.copyOf(rowGroups);
        List<Integer> all = IntStream.range(0, schema.getFields().size()).boxed().toList();
        long rows = rowGroups.stream().mapToLong(ParquetRowGroup::rowCount).sum();
        long bytes = rowGroups.stream().mapToLong(rowGroup -> rowGroup.bytes(all)).sum();
        this.statistics = new Statistics(Estimate.exact(rows), Estimate.inexact(bytes), ParquetStatistics.merge(rowGroups, all));
    }

    /**
     * Opens a Parquet file, or a directory whose {@code *.parquet} files (not recursive; names
     * starting with {@code .} or {@code _} ignored) all have the same columns.
     *
     * @throws QuiverException SOURCE_ERROR naming the path for a missing path, an empty directory,
     *     or a file that is not readable Parquet; NOT_SUPPORTED for a column type Quiver cannot read
     */
    public static ParquetTable open(String name, Path path) {
        requireNonNull(name, "name is null");
        requireNonNull(path, "path is null");
        List<Path> files = listFiles(path);
        Schema schema = null;
        List<ParquetRowGroup> rowGroups = new ArrayList<>();
        for (Path file : files) {
            ParquetMetadata footer = readFooter(file);
            List<ParquetColumn> columns = ParquetSchemas.columns(footer.getFileMetaData().getSchema(), file.toString());
            Schema fileSchema = new Schema(columns.stream().map(ParquetColumn::field).toList());
            if (schema == null) {
                schema = fileSchema;
            } else {
                schema = unify(schema, fileSchema, files.get(0), file);
            }
            List<BlockMetaData> blocks = footer.getBlocks();
            List<Estimate[]> dictionaries = ParquetDictionaries.sizes(file, blocks, columns.size());
            for (int index = 0; index < blocks.size(); index++) {
                rowGroups.add(rowGroup(file, index, blocks.get(index), columns, dictionaries.get(index)));
            }
        }
        return new ParquetTable(name, path, schema, files, rowGroups);
    }

    private static List<Path> listFiles(Path path) {
        if (!Files.exists(path)) {
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "Parquet path " + path + " does not exist");
        }
        if (!Files.isDirectory(path)) {
            return List.of(path);
        }
        try (Stream<Path> entries = Files.list(path)) {
            List<Path> files = entries
                    .filter(Files::isRegularFile)
                    .filter(file -> {
                        String fileName = file.getFileName().toString();
                        return fileName.endsWith(".parquet") && !fileName.startsWith(".") && !fileName.startsWith("_");
                    })
                    .sorted()
                    .toList();
            if (files.isEmpty()) {
                throw new QuiverException(ErrorCode.SOURCE_ERROR, "directory " + path + " holds no .parquet files");
            }
            return files;
        } catch (IOException e) {
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "cannot list directory " + path + ": " + e.getMessage(), e);
        }
    }

    private static ParquetMetadata readFooter(Path file) {
        try (ParquetFileReader reader = ParquetFiles.openReader(file)) {
            return reader.getFooter();
        } catch (IOException | RuntimeException e) {
            String reason = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "cannot read Parquet file " + file + ": " + reason, e);
        }
    }

    /** Files of one table may differ only in nullability (a column that happened to have no NULLs). */
    private static Schema unify(Schema schema, Schema other, Path first, Path file) {
        List<Field> fields = schema.getFields();
        List<Field> otherFields = other.getFields();
        boolean same = fields.size() == otherFields.size();
        List<Field> unified = new ArrayList<>();
        for (int i = 0; same && i < fields.size(); i++) {
            Field a = fields.get(i);
            Field b = otherFields.get(i);
            same = a.getName().equals(b.getName()) && a.getType().equals(b.getType());
            unified.add(a.isNullable() || !b.isNullable() ? a : b);
        }
        if (!same) {
            throw new QuiverException(ErrorCode.SOURCE_ERROR,
                    "Parquet file " + file + " has columns " + other + ", unlike " + first + " with " + schema);
        }
        return new Schema(unified);
    }

    private static ParquetRowGroup rowGroup(Path file, int index, BlockMetaData block, List<ParquetColumn> columns, Estimate[] dictionaries) {
        List<ColumnStatistics> stats = new ArrayList<>(columns.size());
        long[] bytes = new long[columns.size()];
        List<ColumnChunkMetaData> chunks = block.getColumns();
        for (int c = 0; c < columns.size(); c++) {
            ColumnChunkMetaData chunk = chunks.get(c);
            stats.add(ParquetStatistics.of(chunk.getStatistics(), columns.get(c), block.getRowCount(), dictionaries[c]));
            bytes[c] = chunk.getTotalUncompressedSize();
        }
        return new ParquetRowGroup(file, index, block.getRowCount(), stats, bytes);
    }

    @Override
    public String name() {
        return name;
    }

    public Path path() {
        return path;
    }

    public List<Path> files() {
        return files;
    }

    /** Row groups of all files, in file order. */
    public int rowGroupCount() {
        return rowGroups.size();
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
        List<ParquetRowGroup> kept = rowGroups.stream()
                .filter(rowGroup -> !RowGroupPruner.canSkip(request.filters(), rowGroup))
                .toList();
        return new ParquetScanExec(name, schema, projection, assign(kept, projection, request.targetPartitions()),
                request.filters(), files.size(), rowGroups.size());
    }

    /**
     * Deals row groups to at most {@code target} partitions, largest first to the lightest
     * partition (by bytes of the projected columns), then puts each partition back in file order
     * so that a partition reads its files front to back.
     */
    static List<List<ParquetRowGroup>> assign(List<ParquetRowGroup> rowGroups, List<Integer> projection, int target) {
        int count = Math.max(1, Math.min(target, rowGroups.size()));
        List<List<ParquetRowGroup>> partitions = new ArrayList<>(count);
        long[] load = new long[count];
        for (int p = 0; p < count; p++) {
            partitions.add(new ArrayList<>());
        }
        List<Integer> order = IntStream.range(0, rowGroups.size()).boxed()
                .sorted(Comparator.comparingLong((Integer i) -> -weight(rowGroups.get(i), projection)).thenComparing(i -> i))
                .toList();
        for (int i : order) {
            int lightest = 0;
            for (int p = 1; p < count; p++) {
                if (load[p] < load[lightest]) {
                    lightest = p;
                }
            }
            partitions.get(lightest).add(rowGroups.get(i));
            load[lightest] += weight(rowGroups.get(i), projection);
        }
        Comparator<ParquetRowGroup> fileOrder = Comparator.comparing(ParquetRowGroup::file).thenComparingInt(ParquetRowGroup::index);
        partitions.forEach(partition -> partition.sort(fileOrder));
        return partitions;
    }

    /** Bytes to read, or rows when no column is read ({@code count(*)}). */
    private static long weight(ParquetRowGroup rowGroup, List<Integer> projection) {
        return projection.isEmpty() ? rowGroup.rowCount() : rowGroup.bytes(projection);
    }

    @Override
    public String toString() {
        return "parquet(" + path + ")." + name;
    }
}
