package dev.quiver.engine.source.csv;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * How the lines of a CSV table's files are read, settled when the table is opened (given as
 * options or sniffed): what scans need, and what travels to workers with them.
 *
 * @param delimiter the field separator
 * @param quote the character that encloses a field holding delimiters, quotes or line breaks
 * @param escape the character that makes the next one literal inside quotes; equal to
 *     {@code quote} for RFC 4180's doubled quotes ({@code ""})
 * @param header whether each file's first row (after {@code skipRows}) names the columns
 * @param skipRows rows skipped at the start of each file, before the header
 * @param nullStrings the unquoted field texts that are NULL (the empty field by default); a
 *     quoted field is never NULL, as in PostgreSQL
 * @param ignoreErrors whether rows with the wrong number of fields or a value not of its
 *     column's type are skipped (and counted as {@code rows_skipped}) instead of failing the scan
 */
public record CsvFormat(char delimiter, char quote, char escape, boolean header, long skipRows, List<String> nullStrings, boolean ignoreErrors) {
    /** RFC 4180 with a header, as {@code CsvBatchWriter} writes. */
    public static final CsvFormat DEFAULT = new CsvFormat(',', '"', '"', true, 0, List.of(""), false);

    public CsvFormat {
        nullStrings = List.copyOf(requireNonNull(nullStrings, "nullStrings is null"));
        if (delimiter == quote || delimiter == '\n' || delimiter == '\r' || quote == '\n' || quote == '\r') {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "CSV delimiter '" + delimiter + "' and quote '" + quote
                    + "' must differ and may not be line breaks");
        }
        if (skipRows < 0) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "CSV skip must not be negative: " + skipRows);
        }
    }

    public CsvFormat withDelimiter(char value) {
        return new CsvFormat(value, quote, escape, header, skipRows, nullStrings, ignoreErrors);
    }

    public CsvFormat withHeader(boolean value) {
        return new CsvFormat(delimiter, quote, escape, value, skipRows, nullStrings, ignoreErrors);
    }

    /** Whether an unquoted field's bytes are one of the NULL strings. */
    boolean isNull(byte[] bytes, int start, int end) {
        for (String text : nullStrings) {
            if (text.isEmpty() ? start == end : equalsUtf8(text, bytes, start, end)) {
                return true;
            }
        }
        return false;
    }

    private static boolean equalsUtf8(String text, byte[] bytes, int start, int end) {
        byte[] encoded = text.getBytes(StandardCharsets.UTF_8);
        return Arrays.equals(encoded, 0, encoded.length, bytes, start, end);
    }
}
