package dev.quiver.engine.source.files;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.source.arrow.ArrowBatchWriter;
import dev.quiver.engine.source.csv.CsvBatchWriter;
import dev.quiver.engine.source.parquet.ParquetBatchWriter;
import java.nio.file.Path;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.types.pojo.Schema;

/** Opens the writer of one data file by format. */
public final class FileWriters {
    private FileWriters() {}

    /**
     * Creates (or replaces) the file at {@code path}, whose directory must exist.
     *
     * @param allocator what an Arrow IPC writer holds its (empty) staging batch in
     */
    public static BatchFileWriter create(FileFormat format, Path path, Schema schema, FileWriteOptions options, BufferAllocator allocator) {
        return switch (format) {
            case PARQUET -> ParquetBatchWriter.create(path, schema, options.parquet());
            case CSV -> CsvBatchWriter.create(path, schema, options.csv());
            case ARROW -> ArrowBatchWriter.create(path, schema, allocator);
            default -> throw new QuiverException(ErrorCode.NOT_SUPPORTED, "Quiver does not write " + format + " files; write PARQUET, CSV or ARROW");
        };
    }
}
