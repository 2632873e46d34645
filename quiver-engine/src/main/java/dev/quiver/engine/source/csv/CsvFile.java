package dev.quiver.engine.source.csv;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.source.storage.Location;
import dev.quiver.engine.source.storage.Storage;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A byte range of one CSV file: the unit a scan split is made of. The range holds the rows that
 * start inside it; the range starting at 0 also holds the skipped rows and the header, which it
 * skips.
 *
 * @param path the file
 * @param start first byte of the range
 * @param end the byte after the range
 * @param partitionValues the file's values of the table's Hive partition columns (null for NULL);
 *     empty for an unpartitioned table
 */
public record CsvFile(Location path, long start, long end, List<Object> partitionValues) {
    static final int BUFFER_SIZE = 1 << 20;

    public CsvFile {
        requireNonNull(path, "path is null");
        // values may be NULL, which List.copyOf refuses
        partitionValues = Collections.unmodifiableList(new ArrayList<>(requireNonNull(partitionValues, "partitionValues is null")));
    }

    /** A range of a file of an unpartitioned table. */
    public CsvFile(Location path, long start, long end) {
        this(path, start, end, List.of());
    }

    public long bytes() {
        return end - start;
    }

    /** A reader positioned at the file's first line. */
    static CsvRowReader open(Storage storage, Location path, CsvFormat format) {
        return new CsvRowReader(storage.open(path, 0), storage, path, BUFFER_SIZE, 0, format);
    }

    /** A reader of a whole file positioned before its first data row: after the skipped rows and the header. */
    static CsvRowReader openData(Storage storage, Location path, CsvFormat format) {
        CsvRowReader reader = open(storage, path, format);
        for (long row = 0; row < format.skipRows() + (format.header() ? 1 : 0); row++) {
            reader.nextRow(); // checked when the table was opened
        }
        return reader;
    }

    /** A reader positioned before the first row that starts in this range (after the header for the first range). */
    CsvRowReader openRange(Storage storage, CsvFormat format) {
        if (start == 0) {
            return openData(storage, path, format);
        }
        InputStream input = storage.open(path, start - 1);
        CsvRowReader reader = new CsvRowReader(input, storage, path, BUFFER_SIZE, start - 1, format);
        try {
            reader.skipPartialLine();
            return reader;
        } catch (RuntimeException e) {
            reader.close();
            throw e;
        }
    }
}
