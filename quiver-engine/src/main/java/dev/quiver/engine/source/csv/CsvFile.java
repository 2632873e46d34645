package dev.quiver.engine.source.csv;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A byte range of one CSV file: the unit a scan split is made of. The range holds the rows that
 * start inside it; the range starting at 0 also holds the header, which it skips.
 *
 * @param path the file
 * @param start first byte of the range
 * @param end the byte after the range
 */
public record CsvFile(Path path, long start, long end) {
    static final int BUFFER_SIZE = 1 << 20;

    public CsvFile {
        requireNonNull(path, "path is null");
    }

    public long bytes() {
        return end - start;
    }

    /** A reader positioned before the header line. */
    static CsvRowReader open(Path path) {
        try {
            return new CsvRowReader(Files.newInputStream(path), path, BUFFER_SIZE);
        } catch (IOException e) {
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "cannot open CSV file " + path + ": " + e.getMessage(), e);
        }
    }

    /** A reader positioned before the first row that starts in this range (after the header for the first range). */
    CsvRowReader openRange() {
        if (start == 0) {
            CsvRowReader reader = open(path);
            reader.nextRow(); // the header, checked when the table was opened
            return reader;
        }
        FileChannel channel = null;
        try {
            channel = FileChannel.open(path, StandardOpenOption.READ);
            channel.position(start - 1);
            CsvRowReader reader = new CsvRowReader(Channels.newInputStream(channel), path, BUFFER_SIZE, start - 1);
            reader.skipPartialLine();
            return reader;
        } catch (IOException | RuntimeException e) {
            if (channel != null) {
                try {
                    channel.close();
                } catch (IOException ignored) {
                    // already failing
                }
            }
            if (e instanceof QuiverException quiver) {
                throw quiver;
            }
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "cannot open CSV file " + path + ": " + e.getMessage(), e);
        }
    }
}
