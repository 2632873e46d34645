package dev.quiver.engine.source.csv;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.metrics.PartitionMetrics;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Parses the file ranges of one scan partition in order into batches of up to {@code batchSize}
 * rows; a batch may hold the end of one range and the start of the next.
 */
final class CsvPartitionStream implements BatchStream {
    private final Schema tableSchema;
    private final Schema schema;
    private final int[] projection;
    private final List<CsvFile> files;
    private final BufferAllocator allocator;
    private final int batchSize;
    private final PartitionMetrics metrics;
    private final CsvValueParser[] parsers;
    private int nextFile;
    private CsvRowReader reader;
    private long end;
    private boolean closed;

    CsvPartitionStream(Schema tableSchema, List<Integer> projection, List<CsvFile> files, BufferAllocator allocator, int batchSize,
            PartitionMetrics metrics) {
        this.tableSchema = requireNonNull(tableSchema, "tableSchema is null");
        this.projection = projection.stream().mapToInt(Integer::intValue).toArray();
        this.files = List.copyOf(requireNonNull(files, "files is null"));
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
        this.batchSize = batchSize;
        this.schema = new Schema(projection.stream().map(tableSchema.getFields()::get).toList());
        this.parsers = new CsvValueParser[this.projection.length];
        for (int c = 0; c < parsers.length; c++) {
            parsers[c] = new CsvValueParser(schema.getFields().get(c), "table");
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
                parsers[c].bind(batch.getVector(c));
            }
            int rows = fill();
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

    private int fill() {
        int columns = tableSchema.getFields().size();
        int rows = 0;
        while (rows < batchSize) {
            if (reader == null && !openNextFile()) {
                break;
            }
            if (!reader.nextRow() || reader.rowOffset() >= end) {
                // the row starting at or after the range's end belongs to the next range
                reader.close();
                reader = null;
                continue;
            }
            if (reader.fieldCount() != columns) {
                throw reader.rowError("expected " + columns + " fields as in the header, found " + reader.fieldCount());
            }
            for (int c = 0; c < projection.length; c++) {
                parsers[c].read(reader, projection[c], rows);
            }
            rows++;
        }
        return rows;
    }

    private boolean openNextFile() {
        if (nextFile == files.size()) {
            return false;
        }
        CsvFile split = files.get(nextFile++);
        end = split.end();
        reader = split.openRange();
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
