package dev.quiver.cli.format;

import static java.util.Objects.requireNonNull;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;

/**
 * A {@link ResultFormatter.RowWriter} of the formats that write each row as it arrives (CSV, JSON,
 * Markdown, line): the row's text is built in one reused buffer and printed, and the output is
 * flushed after every batch, so a reader sees rows as the query makes them.
 */
abstract class RowLineWriter implements ResultFormatter.RowWriter {
    private final PrintWriter out;
    private final StringBuilder line = new StringBuilder();

    RowLineWriter(PrintWriter out) {
        this.out = requireNonNull(out, "out is null");
    }

    /** Appends the whole text of {@code row}, its line breaks included, to {@code text}. */
    abstract void appendRow(StringBuilder text, List<Object> row);

    @Override
    public final void writeRows(List<List<Object>> rows) {
        for (List<Object> row : rows) {
            line.setLength(0);
            appendRow(line, row);
            out.print(line);
        }
        out.flush();
    }

    @Override
    public void finish(Duration elapsed) {
        out.flush();
    }
}
