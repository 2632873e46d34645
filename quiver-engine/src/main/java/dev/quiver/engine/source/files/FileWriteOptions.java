package dev.quiver.engine.source.files;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.source.csv.CsvWriteOptions;
import dev.quiver.engine.source.parquet.ParquetWriteOptions;

/** How {@link FileWriters} writes each format; the options of the other formats are ignored. */
public record FileWriteOptions(CsvWriteOptions csv, ParquetWriteOptions parquet) {
    public FileWriteOptions {
        requireNonNull(csv, "csv is null");
        requireNonNull(parquet, "parquet is null");
    }

    public static FileWriteOptions defaults() {
        return new FileWriteOptions(CsvWriteOptions.defaults(), ParquetWriteOptions.defaults());
    }
}
