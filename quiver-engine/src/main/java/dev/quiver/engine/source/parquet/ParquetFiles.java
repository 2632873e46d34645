package dev.quiver.engine.source.parquet;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.source.storage.Location;
import dev.quiver.engine.source.storage.Storage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Iterator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.parquet.QuiverParquetReadOptions;
import org.apache.parquet.hadoop.ParquetFileReader;

/** Entry points for writing Parquet files; see {@link ParquetBatchWriter} for streaming writes. */
public final class ParquetFiles {
    private ParquetFiles() {}

    /** Opens a file of {@code storage} of {@code size} bytes for reading (footer included), without Hadoop. */
    static ParquetFileReader openReader(Storage storage, Location file, long size) throws IOException {
        return ParquetFileReader.open(new StorageInputFile(storage, file, size), QuiverParquetReadOptions.create(ParquetCodecs.INSTANCE));
    }

    /** What a write produced. */
    public record WriteResult(Path path, long rowCount, int rowGroupCount) {}

    /** Writes the batches to {@code path}; the caller keeps ownership of the batches. */
    public static WriteResult write(Schema schema, Iterator<VectorSchemaRoot> batches, Path path, ParquetWriteOptions options) {
        requireNonNull(batches, "batches is null");
        ParquetBatchWriter writer = ParquetBatchWriter.create(path, schema, options);
        try (writer) {
            while (batches.hasNext()) {
                writer.write(batches.next());
            }
        }
        return new WriteResult(path, writer.rowCount(), writer.rowGroupCount());
    }

    /** Drains {@code stream} into {@code path}, closing each batch and, at the end, the stream. */
    public static WriteResult write(BatchStream stream, Path path, ParquetWriteOptions options) {
        requireNonNull(stream, "stream is null");
        try (stream) {
            ParquetBatchWriter writer = ParquetBatchWriter.create(path, stream.schema(), options);
            try (writer) {
                for (VectorSchemaRoot batch = stream.next(); batch != null; batch = stream.next()) {
                    try (VectorSchemaRoot owned = batch) {
                        writer.write(owned);
                    }
                }
            }
            return new WriteResult(path, writer.rowCount(), writer.rowGroupCount());
        }
    }
}
