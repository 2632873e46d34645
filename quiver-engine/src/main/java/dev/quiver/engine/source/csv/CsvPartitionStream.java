package dev.quiver.engine.source.csv;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.batch.VectorValues;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.metrics.PartitionMetrics;
import dev.quiver.engine.source.files.ScanCounters;
import dev.quiver.engine.source.storage.Storages;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Parses the file ranges of one scan partition in order into batches of up to {@code batchSize}
 * rows; a batch may hold the end of one range and the start of the next. A projected Hive
 * partition column takes each row's file's value. With {@code ignore_errors}, a row with the wrong
 * number of fields or a value that does not read as its column's type is skipped (its slot in the
 * batch is written over by the next row) and counted as {@code rows_skipped}.
 */
final class CsvPartitionStream implements BatchStream {
    private final Schema schema;
    private final int[] projection;
    private final int fileColumns;
    private final List<CsvFile> files;
    private final CsvFormat format;
    private final BufferAllocator allocator;
    private final int batchSize;
    private final PartitionMetrics metrics;
    private final CsvValueParser[] parsers;
    private int nextFile;
    private CsvRowReader reader;
    private CsvFile split;
    private final Storages storages;
    private boolean closed;

    CsvPartitionStream(Schema tableSchema, List<Integer> projection, List<CsvFile> files, CsvFormat format, Storages storages,
            BufferAllocator allocator, int batchSize, PartitionMetrics metrics) {
        requireNonNull(tableSchema, "tableSchema is null");
        this.storages = requireNonNull(storages, "storages is null");
        this.projection = projection.stream().mapToInt(Integer::intValue).toArray();
        this.files = List.copyOf(requireNonNull(files, "files is null"));
        this.format = requireNonNull(format, "format is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
        this.batchSize = batchSize;
        int partitionColumns = this.files.isEmpty() ? 0 : this.files.get(0).partitionValues().size();
        this.fileColumns = tableSchema.getFields().size() - partitionColumns;
        this.schema = new Schema(projection.stream().map(tableSchema.getFields()::get).toList());
        this.parsers = new CsvValueParser[this.projection.length];
        for (int c = 0; c < parsers.length; c++) {
            if (this.projection[c] < fileColumns) {
                parsers[c] = new CsvValueParser(schema.getFields().get(c), "table");
            }
        }
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
            for (int c = 0; c < parsers.length; c++) {
                if (parsers[c] != null) {
                    parsers[c].bind(batch.getVector(c));
                }
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
            if (!reader.nextRow() || reader.rowOffset() >= split.end()) {
                // the row starting at or after the range's end belongs to the next range
                reader.close();
                reader = null;
                continue;
            }
            if (reader.fieldCount() != fileColumns) {
                if (format.ignoreErrors()) {
                    metrics.addCounter(ScanCounters.ROWS_SKIPPED, 1);
                    continue;
                }
                throw reader.rowError("expected " + fileColumns + " fields as in the " + (format.header() ? "header" : "first row")
                        + ", found " + reader.fieldCount() + " (ignore_errors = true skips such rows)");
            }
            if (readRow(batch, rows)) {
                rows++;
            }
        }
        return rows;
    }

    /** Writes the current row at {@code index}; false when ignore_errors skipped it. */
    private boolean readRow(VectorSchemaRoot batch, int index) {
        for (int c = 0; c < projection.length; c++) {
            if (parsers[c] == null) {
                VectorValues.set(batch.getVector(c), index, split.partitionValues().get(projection[c] - fileColumns));
                continue;
            }
            try {
                parsers[c].read(reader, projection[c], index);
            } catch (QuiverException e) {
                if (!format.ignoreErrors()) {
                    throw e;
                }
                metrics.addCounter(ScanCounters.ROWS_SKIPPED, 1);
                return false;
            }
        }
        return true;
    }

    private boolean openNextFile() {
        if (nextFile == files.size()) {
            return false;
        }
        split = files.get(nextFile++);
        reader = split.openRange(storages.of(split.path()), format);
        metrics.addCounter(ScanCounters.FILES_OPENED, 1);
        metrics.addCounter(ScanCounters.SCANNED_BYTES, split.bytes());
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
