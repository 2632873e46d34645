package dev.quiver.engine.source.csv;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;

/**
 * How {@link CsvBatchWriter} writes: a header line or not, the field delimiter, the quote
 * character, and the text of a NULL (empty by default; an empty string is then written quoted).
 */
public record CsvWriteOptions(boolean header, char delimiter, char quote, String nullString) {
    public CsvWriteOptions {
        requireNonNull(nullString, "nullString is null");
        if (delimiter == quote || delimiter == '\n' || delimiter == '\r' || quote == '\n' || quote == '\r') {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "CSV delimiter '" + delimiter + "' and quote '" + quote
                    + "' must differ and be neither a line break");
        }
        if (delimiter > 0x7f || quote > 0x7f) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "CSV delimiter and quote must be ASCII characters, not '" + delimiter + "', '" + quote + "'");
        }
    }

    /** A header line, comma-separated, {@code "} quotes, NULL as an empty field: what {@link CsvTable} reads by default. */
    public static CsvWriteOptions defaults() {
        return new CsvWriteOptions(true, ',', '"', "");
    }
}
