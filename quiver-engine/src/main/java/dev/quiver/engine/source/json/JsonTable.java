package dev.quiver.engine.source.json;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonToken;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.source.files.FileListing;
import dev.quiver.engine.source.files.FileOptions;
import dev.quiver.engine.source.files.HivePartitions;
import dev.quiver.engine.source.files.HivePartitions.Partitioning;
import dev.quiver.engine.source.files.MultiFileOptions;
import dev.quiver.engine.source.files.SplitAssigner;
import dev.quiver.engine.source.files.StatisticsPruner;
import dev.quiver.engine.source.files.TextValues;
import dev.quiver.engine.source.storage.FileEntry;
import dev.quiver.engine.source.storage.Location;
import dev.quiver.engine.source.storage.Storage;
import dev.quiver.engine.source.storage.Storages;
import dev.quiver.engine.spi.ScanRequest;
import dev.quiver.engine.spi.TableSource;
import dev.quiver.engine.stats.ColumnStatistics;
import dev.quiver.engine.stats.Estimate;
import dev.quiver.engine.stats.Statistics;
import java.io.IOException;
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
 * A table stored as JSON Lines (newline-delimited JSON: one object per line) files: one file, a
 * directory (every {@code .json}, {@code .jsonl}, {@code .ndjson} file below it) or a glob, possibly
 * Hive-partitioned. The columns are given, or inferred from the first {@code sample_size} objects of
 * the first file ({@link JsonSchemaInference}). A scan split is one file. Row counts are estimates
 * from the sampled line width.
 */
public final class JsonTable implements TableSource {
    public static final Set<String> EXTENSIONS = Set.of(".json", ".jsonl", ".ndjson");
    private static final long DEFAULT_SAMPLE_ROWS = 20_480;

    private final String name;
    private final Schema schema;
    private final int fileColumns;
    private final List<JsonFile> files;
    private final Partitioning partitioning;
    private final double bytesPerRow;
    private final boolean ignoreErrors;
    private final Statistics statistics;

    private JsonTable(String name, Schema fileSchema, List<JsonFile> files, Partitioning partitioning, double bytesPerRow, boolean ignoreErrors) {
        this.name = name;
        this.fileColumns = fileSchema.getFields().size();
        List<Field> fields = new ArrayList<>(fileSchema.getFields());
        fields.addAll(partitioning.columns());
        this.schema = new Schema(fields);
        this.files = List.copyOf(files);
        this.partitioning = partitioning;
        this.bytesPerRow = bytesPerRow;
        this.ignoreErrors = ignoreErrors;
        long bytes = files.stream().mapToLong(JsonFile::bytes).sum();
        List<ColumnStatistics> columns = new ArrayList<>();
        for (int c = 0; c < fileColumns; c++) {
            columns.add(ColumnStatistics.unknown());
        }
        for (ColumnStatistics partition : partitioning.statistics(files.stream().map(JsonFile::path).toList())) {
            columns.add(new ColumnStatistics(Estimate.absent(), partition.distinctCount(), partition.min(), partition.max(), true));
        }
        this.statistics = new Statistics(Estimate.inexact(bytesPerRow <= 0 ? 0 : Math.round(bytes / bytesPerRow)), Estimate.inexact(bytes), columns);
    }

    /**
     * Opens the JSON Lines files of {@code locations} with {@code read_json}'s options
     * ({@code columns} comes as {@code schema}): {@code sample_size}, {@code ignore_errors},
     * {@code format} ({@code newline_delimited}, or {@code auto}), and the multi-file ones.
     */
    public static JsonTable open(Storages storages, String name, List<String> locations, Optional<Schema> schema, FileOptions options) {
        requireNonNull(storages, "storages is null");
        requireNonNull(name, "name is null");
        requireNonNull(schema, "schema is null");
        long sampleRows = options.integer("sample_size").orElse(DEFAULT_SAMPLE_ROWS);
        boolean ignoreErrors = options.bool("ignore_errors").orElse(false);
        String format = options.string("format").orElse("auto").toLowerCase(Locale.ROOT);
        MultiFileOptions multi = MultiFileOptions.from(options);
        options.checkAllRead("json files");
        if (!format.equals("auto") && !format.equals("newline_delimited")) {
            throw new QuiverException(ErrorCode.NOT_SUPPORTED, "read_json reads JSON Lines (format = 'newline_delimited'), not format = '" + format + "'");
        }
        if (multi.unionByName()) {
            throw new QuiverException(ErrorCode.NOT_SUPPORTED, "union_by_name is not supported for JSON files");
        }
        List<FileEntry> listed = FileListing.list(storages, locations, EXTENSIONS, "JSON");
        List<Location> paths = listed.stream().map(FileEntry::location).toList();
        Sample sample = sample(storages.of(paths.get(0)), paths.get(0), sampleRows < 0 ? Long.MAX_VALUE : sampleRows, ignoreErrors);
        Schema fileSchema = schema.orElseGet(() -> new Schema(sample.inference().fields()));
        if (fileSchema.getFields().isEmpty()) {
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "JSON file " + paths.get(0) + " has no object with a key to make a column of");
        }
        Set<String> names = fileSchema.getFields().stream().map(f -> f.getName().toLowerCase(Locale.ROOT)).collect(Collectors.toSet());
        Partitioning partitioning = HivePartitions.of(paths, multi.hivePartitioning(), multi.hiveTypesAutocast()).without(names);
        List<JsonFile> files = listed.stream().map(file -> new JsonFile(file.location(), file.size(), partitioning.valuesOf(file.location()))).toList();
        return new JsonTable(name, fileSchema, files, partitioning, sample.bytesPerRow(), ignoreErrors);
    }

    private record Sample(JsonSchemaInference inference, double bytesPerRow) {}

    private static Sample sample(Storage storage, Location file, long rows, boolean ignoreErrors) {
        JsonSchemaInference inference = new JsonSchemaInference();
        long bytes = 0;
        long objects = 0;
        try (JsonLineReader reader = new JsonLineReader(storage, file)) {
            while (objects < rows) {
                try {
                    if (!reader.next()) {
                        break;
                    }
                    sampleObject(reader, inference);
                } catch (QuiverException e) {
                    if (!ignoreErrors) {
                        throw e;
                    }
                    continue;
                }
                bytes += reader.lineBytes();
                objects++;
            }
        }
        return new Sample(inference, objects == 0 ? 0 : (double) bytes / objects);
    }

    private static void sampleObject(JsonLineReader reader, JsonSchemaInference inference) {
        try {
            while (reader.parser().nextToken() == JsonToken.FIELD_NAME) {
                String key = reader.parser().currentName();
                JsonToken token = reader.parser().nextToken();
                String text = token == JsonToken.VALUE_STRING ? reader.parser().getText() : null;
                boolean fitsLong = token != JsonToken.VALUE_NUMBER_INT || TextValues.fitsLong(reader.parser().getText());
                inference.add(key, token, text, fitsLong);
                reader.parser().skipChildren();
            }
        } catch (IOException e) {
            throw reader.error(e);
        }
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Schema schema() {
        return schema;
    }

    @Override
    public Statistics statistics() {
        return statistics;
    }

    public List<Location> files() {
        return files.stream().map(JsonFile::path).toList();
    }

    @Override
    public ExecutionPlan scan(ScanRequest request) {
        List<Integer> projection = request.projection().orElseGet(() -> IntStream.range(0, schema.getFields().size()).boxed().toList());
        List<JsonFile> kept = files.stream()
                .filter(file -> !StatisticsPruner.canSkipPartition(request.filters(), fileColumns, file.partitionValues())).toList();
        return new JsonScanExec(name, schema, projection, SplitAssigner.assign(kept, JsonFile::bytes, request.targetPartitions()), bytesPerRow,
                ignoreErrors);
    }


    @Override
    public String toString() {
        return "json(" + files.size() + " files)." + name;
    }
}
