package dev.quiver.bench;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.source.files.FileFormat;
import java.util.Locale;
import java.util.Optional;

/** Where the benchmark's tables come from: generated in memory, or files written once and read by both engines. */
public enum BenchSource {
    GENERATED(Optional.empty()),
    PARQUET(Optional.of(FileFormat.PARQUET)),
    ARROW(Optional.of(FileFormat.ARROW));

    private final Optional<FileFormat> format;

    BenchSource(Optional<FileFormat> format) {
        this.format = format;
    }

    /** The file format the tables are written in, empty for {@link #GENERATED}. */
    public Optional<FileFormat> format() {
        return format;
    }

    public static BenchSource fromName(String name) {
        return switch (name.strip().toLowerCase(Locale.ROOT)) {
            case "generated" -> GENERATED;
            case "parquet" -> PARQUET;
            case "arrow" -> ARROW;
            default -> throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "unknown source '" + name + "'; use generated, parquet or arrow");
        };
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
