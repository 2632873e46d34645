package dev.quiver.engine.source.csv;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.source.storage.Location;
import dev.quiver.engine.source.storage.Storage;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Splits RFC 4180 CSV bytes into rows and fields without making strings: after
 * {@link #nextRow()}, field {@code i} is the bytes {@code [start(i), end(i))} of {@link #buffer()}
 * (inside the quotes for a quoted field; {@link #escaped(i)} says whether doubled quotes need
 * collapsing). Fields are separated by {@code ,}; rows end at LF or CRLF outside quotes; a quoted
 * field may hold commas, quotes (doubled) and line breaks. Blank lines are skipped. The delimiter,
 * the quote and the escape character come from a {@link CsvFormat} (a comma and RFC 4180's
 * doubled quotes by default; an escape other than the quote makes the next character literal).
 *
 * <p>The reader refills one buffer, moving the unfinished row to its front; a row longer than the
 * buffer grows it. Line numbers count physical lines from 1, so an error can name the line where
 * a bad row starts.
 */
final class CsvRowReader implements AutoCloseable {
    private static final byte CR = '\r';
    private static final byte LF = '\n';

    private final InputStream input;
    private final Storage storage;
    private final Location file;
    private final CsvFormat format;
    /** The default NULL strings (only the empty field): checked without going through the format. */
    private final boolean emptyIsTheOnlyNull;
    private final byte delimiter;
    private final byte quote;
    private final byte escape;
    private byte[] buffer;
    private int limit;
    private int position;
    private boolean eof;
    private boolean started;
    private long line = 1;
    private long rowLine;
    private int rowBytes;
    private long bufferOffset;
    private long rowOffset;
    private long dataStart;
    private long lineBase;
    private boolean quotedLineBreak;
    private int fieldCount;
    private int[] starts = new int[16];
    private int[] ends = new int[16];
    private boolean[] escapes = new boolean[16];
    private boolean[] quoted = new boolean[16];


    /**
     * A reader of {@code input}, which starts at byte {@code startOffset} of the file. When that is
     * not 0, the line numbers in messages are found by counting the file's line breaks up to the
     * row in question, which only an error pays for.
     */
    CsvRowReader(InputStream input, Storage storage, Location file, int bufferSize, long startOffset, CsvFormat format) {
        this.input = requireNonNull(input, "input is null");
        this.storage = requireNonNull(storage, "storage is null");
        this.file = requireNonNull(file, "file is null");
        this.format = requireNonNull(format, "format is null");
        this.emptyIsTheOnlyNull = format.nullStrings().equals(List.of(""));
        this.delimiter = ascii(format.delimiter(), "delimiter");
        this.quote = ascii(format.quote(), "quote");
        this.escape = ascii(format.escape(), "escape");
        this.buffer = new byte[bufferSize];
        this.bufferOffset = startOffset;
        this.dataStart = startOffset;
        this.lineBase = startOffset == 0 ? 0 : -1;
    }

    private static byte ascii(char c, String what) {
        if (c > 0x7f) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "The CSV " + what + " must be an ASCII character, not '" + c + "'");
        }
        return (byte) c;
    }

    /**
     * Skips the rest of the line the input starts in, for a reader of a byte range that starts
     * one byte before its range: a row belongs to the range it starts in.
     */
    void skipPartialLine() {
        while (true) {
            for (int i = position; i < limit; i++) {
                if (buffer[i] == LF) {
                    position = i + 1;
                    dataStart = bufferOffset + position;
                    return;
                }
            }
            position = limit;
            if (eof) {
                dataStart = bufferOffset + position;
                return;
            }
            refill(position);
        }
    }

    /** Reads the next row; false at the end of the input. */
    boolean nextRow() {
        while (true) {
            if (position >= limit) {
                if (eof) {
                    fieldCount = 0;
                    return false;
                }
                refill(position);
                continue;
            }
            int rowStart = position;
            long startLine = line;
            int result = parseRow(rowStart);
            if (result >= 0) {
                position = result;
                if (fieldCount == 1 && ends[0] == starts[0] && !quoted[0]) {
                    continue; // a blank line
                }
                rowLine = startLine;
                rowBytes = result - rowStart;
                rowOffset = bufferOffset + rowStart;
                return true;
            }
            line = startLine;
            if (eof) {
                throw error(startLine, "a quoted field is not closed before the end of the file");
            }
            refill(rowStart);
        }
    }

    /**
     * Parses one row starting at {@code from}; returns the position after its line break (or the
     * end of input at EOF), or -1 when the buffer ends first and more input may follow.
     */
    private int parseRow(int from) {
        fieldCount = 0;
        int i = from;
        while (true) {
            if (i >= limit && !eof) {
                return -1;
            }
            ensureFieldCapacity();
            int field = fieldCount++;
            escapes[field] = false;
            if (i < limit && buffer[i] == quote) {
                quoted[field] = true;
                int contentStart = ++i;
                while (true) {
                    if (i >= limit) {
                        return -1;
                    }
                    byte b = buffer[i];
                    if (b == escape && escape != quote) {
                        if (i + 1 >= limit) {
                            return -1;
                        }
                        if (buffer[i + 1] == LF) {
                            line++;
                            quotedLineBreak = true;
                        }
                        escapes[field] = true;
                        i += 2;
                        continue;
                    }
                    if (b == quote) {
                        if (i + 1 >= limit && !eof) {
                            return -1;
                        }
                        if (escape == quote && i + 1 < limit && buffer[i + 1] == quote) {
                            escapes[field] = true;
                            i += 2;
                            continue;
                        }
                        break;
                    }
                    if (b == LF) {
                        line++;
                        quotedLineBreak = true;
                    }
                    i++;
                }
                starts[field] = contentStart;
                ends[field] = i;
                i++; // the closing quote
                if (i >= limit) {
                    if (!eof) {
                        return -1;
                    }
                    line++;
                    return i;
                }
                byte after = buffer[i];
                if (after == delimiter) {
                    i++;
                    continue;
                }
                if (after == LF) {
                    line++;
                    return i + 1;
                }
                if (after == CR && i + 1 < limit && buffer[i + 1] == LF) {
                    line++;
                    return i + 2;
                }
                if (after == CR && i + 1 >= limit && !eof) {
                    return -1;
                }
                throw error(line, "unexpected character '" + (char) (after & 0xff) + "' after the closing quote of field " + (field + 1));
            }
            quoted[field] = false;
            starts[field] = i;
            while (i < limit) {
                byte b = buffer[i];
                if (b == delimiter || b == LF) {
                    break;
                }
                i++;
            }
            if (i >= limit) {
                if (!eof) {
                    return -1;
                }
                ends[field] = trimCr(starts[field], i);
                line++;
                return i;
            }
            ends[field] = trimCr(starts[field], i);
            if (buffer[i] == delimiter) {
                i++;
                if (i >= limit && eof) {
                    // a trailing comma at the very end: one more, empty field
                    ensureFieldCapacity();
                    starts[fieldCount] = i;
                    ends[fieldCount] = i;
                    quoted[fieldCount] = false;
                    escapes[fieldCount] = false;
                    fieldCount++;
                    line++;
                    return i;
                }
                continue;
            }
            line++;
            return i + 1;
        }
    }

    private int trimCr(int start, int end) {
        return end > start && buffer[end - 1] == CR ? end - 1 : end;
    }

    private void ensureFieldCapacity() {
        if (fieldCount == starts.length) {
            int size = starts.length * 2;
            starts = Arrays.copyOf(starts, size);
            ends = Arrays.copyOf(ends, size);
            escapes = Arrays.copyOf(escapes, size);
            quoted = Arrays.copyOf(quoted, size);
        }
    }

    private void refill(int rowStart) {
        int kept = limit - rowStart;
        if (rowStart == 0 && limit == buffer.length) {
            buffer = Arrays.copyOf(buffer, buffer.length * 2);
        } else if (kept > 0 && rowStart > 0) {
            System.arraycopy(buffer, rowStart, buffer, 0, kept);
        }
        bufferOffset += rowStart;
        limit = kept;
        position = 0;
        try {
            while (limit < buffer.length) {
                int read = input.read(buffer, limit, buffer.length - limit);
                if (read < 0) {
                    eof = true;
                    break;
                }
                limit += read;
                if (read == 0) {
                    break;
                }
            }
        } catch (IOException e) {
            throw new QuiverException(ErrorCode.SOURCE_ERROR, "cannot read CSV file " + file + ": " + e.getMessage(), e);
        }
        if (!started) {
            started = true;
            // a UTF-8 byte order mark, as spreadsheet programs write, is not part of the first column's name
            if (bufferOffset == 0 && limit >= 3 && buffer[0] == (byte) 0xEF && buffer[1] == (byte) 0xBB && buffer[2] == (byte) 0xBF) {
                position = 3;
            }
        }
    }

    byte[] buffer() {
        return buffer;
    }

    int fieldCount() {
        return fieldCount;
    }

    int start(int field) {
        return starts[field];
    }

    int end(int field) {
        return ends[field];
    }

    /** The field was quoted: an empty quoted field is an empty string, not NULL. */
    boolean quoted(int field) {
        return quoted[field];
    }

    /** The quoted field holds doubled quotes (or escapes) that {@link #unescape} collapses. */
    boolean escaped(int field) {
        return escapes[field];
    }

    /** Physical line (from 1) where the current row starts. */
    long rowLine() {
        return absoluteLine(rowLine);
    }

    /** File offset where the current row starts. */
    long rowOffset() {
        return rowOffset;
    }

    /** Whether a quoted field read so far held a line break (then a file cannot be split at line starts). */
    boolean sawQuotedLineBreak() {
        return quotedLineBreak;
    }

    private long absoluteLine(long relativeLine) {
        if (lineBase < 0) {
            lineBase = countLineBreaks(storage, file, dataStart);
        }
        return lineBase + relativeLine;
    }

    private static long countLineBreaks(Storage storage, Location file, long end) {
        long count = 0;
        byte[] chunk = new byte[1 << 16];
        try (InputStream in = storage.open(file, 0)) {
            long remaining = end;
            while (remaining > 0) {
                int read = in.read(chunk, 0, (int) Math.min(chunk.length, remaining));
                if (read < 0) {
                    break;
                }
                for (int i = 0; i < read; i++) {
                    if (chunk[i] == LF) {
                        count++;
                    }
                }
                remaining -= read;
            }
        } catch (IOException | QuiverException e) {
            return 0; // only for a message: the relative line is still some help
        }
        return count;
    }

    /** Bytes of the current row, line break included. */
    int rowBytes() {
        return rowBytes;
    }

    /** The current row's fields as strings, NULL (an unquoted NULL string, by default the empty field) as null. */
    List<String> values() {
        List<String> values = new ArrayList<>(fieldCount);
        for (int i = 0; i < fieldCount; i++) {
            values.add(isNull(i) ? null : text(i));
        }
        return values;
    }

    /** Whether field {@code i} is NULL: unquoted and one of the format's NULL strings. */
    boolean isNull(int field) {
        if (quoted[field]) {
            return false;
        }
        return emptyIsTheOnlyNull ? starts[field] == ends[field] : format.isNull(buffer, starts[field], ends[field]);
    }

    CsvFormat format() {
        return format;
    }

    Location file() {
        return file;
    }

    /** The field's bytes with doubled quotes collapsed, in {@code scratch} (grown as needed); returns the length. */
    int unescape(int field, byte[][] scratch) {
        int start = starts[field];
        int end = ends[field];
        if (scratch[0].length < end - start) {
            scratch[0] = new byte[Math.max(end - start, scratch[0].length * 2)];
        }
        byte[] out = scratch[0];
        int length = 0;
        for (int i = start; i < end; i++) {
            if (escape != quote && buffer[i] == escape && i + 1 < end) {
                i++;
                out[length++] = buffer[i];
                continue;
            }
            out[length++] = buffer[i];
            if (escape == quote && buffer[i] == quote) {
                i++;
            }
        }
        return length;
    }

    /** The field as a string (for messages and the slow paths). */
    String text(int field) {
        if (escapes[field]) {
            byte[][] scratch = {new byte[16]};
            int length = unescape(field, scratch);
            return new String(scratch[0], 0, length, StandardCharsets.UTF_8);
        }
        return new String(buffer, starts[field], ends[field] - starts[field], StandardCharsets.UTF_8);
    }

    /** An error at {@code atLine} as this reader counts lines (see {@link #rowLine()} for the current row's). */
    QuiverException error(long atLine, String message) {
        return new QuiverException(ErrorCode.SOURCE_ERROR, "CSV file " + file + " line " + absoluteLine(atLine) + ": " + message);
    }

    /** An error in the current row. */
    QuiverException rowError(String message) {
        return error(rowLine, message);
    }

    @Override
    public void close() {
        try {
            input.close();
        } catch (IOException ignored) {
            // a read-only file: nothing is lost if its close fails
        }
    }
}
