package dev.quiver.engine.source.parquet;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;

/**
 * How {@link ParquetBatchWriter} lays out a file. A row group ends when it holds
 * {@code rowGroupRows} rows or its encoded size reaches {@code rowGroupBytes}, whichever comes
 * first; a row group is the unit of a scan split, so smaller ones spread a table over more tasks.
 *
 * @param rowGroupRows the most rows in one row group
 * @param rowGroupBytes the most encoded (pre-compression) bytes buffered for one row group
 * @param compression the page compression codec
 * @param dictionary whether to dictionary-encode columns (falls back to plain per column when the dictionary grows large)
 */
public record ParquetWriteOptions(long rowGroupRows, long rowGroupBytes, Compression compression, boolean dictionary) {
    /** 256Ki rows: SF 1 lineitem (6M rows) becomes 23 row groups, enough splits for a small cluster. */
    public static final long DEFAULT_ROW_GROUP_ROWS = 256 * 1024;
    public static final long DEFAULT_ROW_GROUP_BYTES = 128L << 20;

    public ParquetWriteOptions {
        requireNonNull(compression, "compression is null");
        if (rowGroupRows < 1 || rowGroupBytes < 1) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT,
                    "Parquet row groups need at least one row and one byte: rows=" + rowGroupRows + ", bytes=" + rowGroupBytes);
        }
    }

    public static ParquetWriteOptions defaults() {
        return new ParquetWriteOptions(DEFAULT_ROW_GROUP_ROWS, DEFAULT_ROW_GROUP_BYTES, Compression.SNAPPY, true);
    }

    public ParquetWriteOptions withRowGroupRows(long rows) {
        return new ParquetWriteOptions(rows, rowGroupBytes, compression, dictionary);
    }

    public ParquetWriteOptions withRowGroupBytes(long bytes) {
        return new ParquetWriteOptions(rowGroupRows, bytes, compression, dictionary);
    }

    public ParquetWriteOptions withCompression(Compression codec) {
        return new ParquetWriteOptions(rowGroupRows, rowGroupBytes, codec, dictionary);
    }

    public ParquetWriteOptions withDictionary(boolean enabled) {
        return new ParquetWriteOptions(rowGroupRows, rowGroupBytes, compression, enabled);
    }

    /** Page compression codecs Quiver writes. */
    public enum Compression {
        UNCOMPRESSED,
        SNAPPY,
        ZSTD,
        GZIP,
        LZ4_RAW
    }
}
