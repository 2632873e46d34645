package dev.quiver.engine.source.json;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonToken;
import dev.quiver.engine.batch.VectorValues;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.metrics.PartitionMetrics;
import dev.quiver.engine.source.files.ScanCounters;
import dev.quiver.engine.source.storage.Storages;
import dev.quiver.engine.types.QuiverTypes;
import java.io.IOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Reads the JSON Lines files of one scan partition in order into batches of up to
 * {@code batchSize} rows. A key matches the column of exactly its name (JSON keys are
 * case-sensitive, as in DuckDB); keys the table has not projected are skipped, projected columns
 * a line lacks are NULL, a projected Hive partition column takes the file's value. A line that is
 * not a JSON object, or a value not of its column's type, fails the scan naming the file and line;
 * with {@code ignore_errors}, as DuckDB does, such a value is NULL and such a line a row of NULLs,
 * each counted as {@code errors_ignored}.
 */
final class JsonPartitionStream implements BatchStream {
    /** The counter of values read as NULL and lines read as rows of NULLs under {@code ignore_errors}. */
    static final String ERRORS_IGNORED = "errors_ignored";

    private final Schema schema;
    private final int[] projection;
    private final int fileColumns;
    private final Map<String, Integer> outputByKey = new HashMap<>();
    private final List<JsonFile> files;
    private final boolean ignoreErrors;
    private final BufferAllocator allocator;
    private final int batchSize;
    private final PartitionMetrics metrics;
    private final boolean[] written;
    private int nextFile;
    private JsonLineReader reader;
    private final Storages storages;
    private JsonFile file;
    private boolean closed;

    JsonPartitionStream(Schema tableSchema, List<Integer> projection, List<JsonFile> files, boolean ignoreErrors, Storages storages,
            BufferAllocator allocator, int batchSize, PartitionMetrics metrics) {
        requireNonNull(tableSchema, "tableSchema is null");
        this.storages = requireNonNull(storages, "storages is null");
        this.projection = projection.stream().mapToInt(Integer::intValue).toArray();
        this.schema = new Schema(projection.stream().map(tableSchema.getFields()::get).toList());
        this.files = List.copyOf(requireNonNull(files, "files is null"));
        this.fileColumns = tableSchema.getFields().size() - (this.files.isEmpty() ? 0 : this.files.get(0).partitionValues().size());
        for (int c = 0; c < this.projection.length; c++) {
            if (this.projection[c] < fileColumns) {
                outputByKey.put(schema.getFields().get(c).getName(), c);
            }
        }
        this.ignoreErrors = ignoreErrors;
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
        this.batchSize = batchSize;
        this.written = new boolean[this.projection.length];
    }

    @Override
    public Schema schema() {
        return schema;
    }

    @Override
    public VectorSchemaRoot next() {
        if (closed) {
            return null;
        }
        long start = System.nanoTime();
        VectorSchemaRoot batch = VectorSchemaRoot.create(schema, allocator);
        try {
            for (FieldVector vector : batch.getFieldVectors()) {
                vector.setInitialCapacity(batchSize);
                vector.allocateNew();
            }
            int rows = fill(batch);
            if (rows == 0) {
                batch.close();
                close();
                return null;
            }
            batch.setRowCount(rows);
            return batch;
        } catch (RuntimeException e) {
            batch.close();
            close();
            throw e;
        } finally {
            metrics.addElapsedCompute(System.nanoTime() - start);
        }
    }

    private int fill(VectorSchemaRoot batch) {
        int rows = 0;
        while (rows < batchSize) {
            if (reader == null && !openNextFile()) {
                break;
            }
            Arrays.fill(written, false);
            boolean read;
            try {
                read = reader.next();
            } catch (QuiverException e) {
                ignoreOrFail(e);
                finishRow(batch, rows++);
                continue;
            }
            if (!read) {
                reader.close();
                reader = null;
                continue;
            }
            readRow(batch, rows);
            finishRow(batch, rows++);
        }
        return rows;
    }

    /** Writes the current line's projected keys at {@code index}. */
    private void readRow(VectorSchemaRoot batch, int index) {
        try {
            while (reader.parser().nextToken() == JsonToken.FIELD_NAME) {
                Integer column = outputByKey.get(reader.parser().currentName());
                reader.parser().nextToken();
                if (column == null) {
                    reader.parser().skipChildren();
                    continue;
                }
                String problem = JsonValues.write(reader, batch.getVector(column), index);
                if (problem != null) {
                    Field field = schema.getFields().get(column);
                    ignoreOrFail(reader.error("key '" + field.getName() + "': the value " + problem + " (the column is "
                            + QuiverTypes.sqlName(field.getType()) + ")"));
                    continue; // the column stays unwritten: NULL
                }
                written[column] = true;
            }
        } catch (IOException e) {
            // the rest of the line is unreadable: what was not written is NULL
            ignoreOrFail(reader.error(e));
            Arrays.fill(written, false);
        }
    }

    /** NULL in the projected columns the line did not write, the file's values in the partition columns. */
    private void finishRow(VectorSchemaRoot batch, int index) {
        for (int c = 0; c < projection.length; c++) {
            if (projection[c] >= fileColumns) {
                VectorValues.set(batch.getVector(c), index, file.partitionValues().get(projection[c] - fileColumns));
            } else if (!written[c]) {
                VectorValues.setNull(batch.getVector(c), index);
            }
        }
    }

    private void ignoreOrFail(QuiverException error) {
        if (!ignoreErrors) {
            throw error;
        }
        metrics.addCounter(ERRORS_IGNORED, 1);
    }

    private boolean openNextFile() {
        if (nextFile == files.size()) {
            return false;
        }
        file = files.get(nextFile++);
        reader = new JsonLineReader(storages.of(file.path()), file.path());
        metrics.addCounter(ScanCounters.FILES_OPENED, 1);
        metrics.addCounter(ScanCounters.SCANNED_BYTES, file.bytes());
        return true;
    }

    @Override
    public void close() {
        closed = true;
        if (reader != null) {
            reader.close();
            reader = null;
        }
    }
}
