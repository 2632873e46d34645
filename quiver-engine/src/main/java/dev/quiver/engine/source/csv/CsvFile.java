package dev.quiver.engine.source.csv;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * One CSV file of a table: the unit a scan split is made of.
 *
 * @param path the file
 * @param bytes its size
 */
record CsvFile(Path path, long bytes) {
    static final int BUFFER_SIZE = 1 << 20;

    CsvFile {
        requireNonNull(path, "path is null");
    }

    /** A reader positioned before the header line. */
    static CsvRowReader open(Path path) {
        try {
            return new CsvRowReader(Files.newInputStream(path), path, BUFFER_SIZE);
        } catch (IOException e) {
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "cannot open CSV file " + path + ": " + e.getMessage(), e);
        }
    }
}
