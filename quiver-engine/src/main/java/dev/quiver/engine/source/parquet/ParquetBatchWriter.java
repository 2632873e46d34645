package dev.quiver.engine.source.parquet;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.source.files.BatchFileWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnWriteStore;
import org.apache.parquet.column.ColumnWriter;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.ColumnChunkPageWriteStore;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.MessageType;

/**
 * Writes Arrow batches of Quiver types to one Parquet file, column by column, cutting row groups
 * by {@link ParquetWriteOptions}. Not thread-safe: one writer per file, one thread per writer.
 * {@link #close()} finishes the file; if writing failed, the partial file is deleted.
 *
 * <pre>{@code
 * try (ParquetBatchWriter writer = ParquetBatchWriter.create(path, schema, ParquetWriteOptions.defaults())) {
 *     writer.write(batch);   // the caller still owns and closes the batch
 * }
 * }</pre>
 */
public final class ParquetBatchWriter implements BatchFileWriter {
    private static final int ROWS_PER_SIZE_CHECK = 4096;

    private final Path path;
    private final Schema schema;
    private final ParquetWriteOptions options;
    private final MessageType parquetSchema;
    private final List<ColumnDescriptor> descriptors;
    private final ColumnEncoder[] encoders;
    private final ParquetProperties properties;
    private final CompressionCodecFactory.BytesInputCompressor compressor;
    private final ParquetFileWriter fileWriter;
    private ColumnChunkPageWriteStore pageStore;
    private ColumnWriteStore columnStore;
    private ColumnWriter[] columnWriters;
    private long rowsInGroup;
    private long rows;
    private int rowGroups;
    private boolean closed;
    private boolean failed;

    private ParquetBatchWriter(Path path, Schema schema, ParquetWriteOptions options) throws IOException {
        this.path = path;
        this.schema = schema;
        this.options = options;
        this.parquetSchema = ParquetSchemas.toParquet(schema);
        this.descriptors = parquetSchema.getColumns();
        this.encoders = schema.getFields().stream().map(ColumnEncoder::new).toArray(ColumnEncoder[]::new);
        this.properties = ParquetProperties.builder()
                .withDictionaryEncoding(options.dictionary())
                .withWriterVersion(ParquetProperties.WriterVersion.PARQUET_1_0)
                .build();
        this.compressor = ParquetCodecs.INSTANCE.getCompressor(CompressionCodecName.valueOf(options.compression().name()));
        this.fileWriter = new ParquetFileWriter(new LocalOutputFile(path), parquetSchema, ParquetFileWriter.Mode.OVERWRITE,
                options.rowGroupBytes(), 0, properties.getColumnIndexTruncateLength(), properties.getStatisticsTruncateLength(), false);
        fileWriter.start();
    }

    /** Creates (or replaces) the file at {@code path}; its parent directory must exist. */
    public static ParquetBatchWriter create(Path path, Schema schema, ParquetWriteOptions options) {
        requireNonNull(path, "path is null");
        requireNonNull(schema, "schema is null");
        requireNonNull(options, "options is null");
        try {
            return new ParquetBatchWriter(path, schema, options);
        } catch (IOException e) {
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "cannot create Parquet file " + path + ": " + e.getMessage(), e);
        }
    }

    public Path path() {
        return path;
    }

    public Schema schema() {
        return schema;
    }

    /** Rows written so far. */
    public long rowCount() {
        return rows;
    }

    /** Row groups completed so far (the last one is completed by {@link #close()}). */
    public int rowGroupCount() {
        return rowGroups;
    }

    /** Appends a batch with this writer's schema; the caller keeps ownership of the batch. */
    public void write(VectorSchemaRoot batch) {
        requireNonNull(batch, "batch is null");
        checkOpen();
        if (!batch.getSchema().getFields().stream().map(Field::getType).toList()
                .equals(schema.getFields().stream().map(Field::getType).toList())) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT,
                    "batch schema " + batch.getSchema() + " does not match the Parquet file's schema " + schema);
        }
        try {
            int count = batch.getRowCount();
            int from = 0;
            while (from < count) {
                if (columnStore == null) {
                    startRowGroup();
                }
                int to = (int) Math.min(count, from + Math.min(ROWS_PER_SIZE_CHECK, options.rowGroupRows() - rowsInGroup));
                for (int c = 0; c < encoders.length; c++) {
                    encoders[c].write(batch.getVector(c), from, to, columnWriters[c]);
                }
                for (int r = from; r < to; r++) {
                    columnStore.endRecord();
                }
                rowsInGroup += to - from;
                rows += to - from;
                from = to;
                if (rowsInGroup >= options.rowGroupRows() || columnStore.getBufferedSize() >= options.rowGroupBytes()) {
                    flushRowGroup();
                }
            }
        } catch (IOException e) {
            failed = true;
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "cannot write Parquet file " + path + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            failed = true;
            throw e;
        }
    }

    private void startRowGroup() {
        pageStore = new ColumnChunkPageWriteStore(compressor, parquetSchema, properties.getAllocator(),
                properties.getColumnIndexTruncateLength(), properties.getPageWriteChecksumEnabled());
        columnStore = properties.newColumnWriteStore(parquetSchema, pageStore, pageStore);
        columnWriters = descriptors.stream().map(columnStore::getColumnWriter).toArray(ColumnWriter[]::new);
        rowsInGroup = 0;
    }

    private void flushRowGroup() throws IOException {
        fileWriter.startBlock(rowsInGroup);
        columnStore.flush();
        pageStore.flushToFileWriter(fileWriter);
        fileWriter.endBlock();
        releaseRowGroup();
        rowGroups++;
    }

    private void releaseRowGroup() {
        if (columnStore != null) {
            columnStore.close();
            pageStore.close();
        }
        columnStore = null;
        pageStore = null;
        columnWriters = null;
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("Parquet writer for " + path + " is closed");
        }
    }

    /** Completes the file (footer included); on an earlier failure, deletes it instead. Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (!failed) {
                if (columnStore != null && rowsInGroup > 0) {
                    flushRowGroup();
                }
                fileWriter.end(Map.of("writer.model.name", "quiver"));
                return;
            }
        } catch (IOException | RuntimeException e) {
            failed = true;
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "cannot finish Parquet file " + path + ": " + e.getMessage(), e);
        } finally {
            releaseRowGroup();
            compressor.release();
            if (failed) {
                abandon();
            }
        }
    }

    private void abandon() {
        try {
            fileWriter.close();
        } catch (IOException | RuntimeException ignored) {
            // the file is deleted below; how its stream closed does not matter
        }
        try {
            Files.deleteIfExists(path);
        } catch (IOException ignored) {
            // best effort: the write already failed with a clearer error
        }
    }
}
