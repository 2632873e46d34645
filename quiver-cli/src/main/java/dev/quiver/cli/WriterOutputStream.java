package dev.quiver.cli;

import static java.util.Objects.requireNonNull;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/**
 * An {@link OutputStream} of UTF-8 text that writes into a {@link PrintWriter} a line at a time,
 * for code that prints to a {@code PrintStream} while the CLI's output is a writer. A line is
 * decoded once complete, so a character is never split.
 */
final class WriterOutputStream extends OutputStream {
    private final PrintWriter writer;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();

    WriterOutputStream(PrintWriter writer) {
        this.writer = requireNonNull(writer, "writer is null");
    }

    @Override
    public synchronized void write(int b) {
        line.write(b);
        if (b == '\n') {
            drain();
        }
    }

    @Override
    public synchronized void write(byte[] bytes, int offset, int length) {
        int start = offset;
        for (int i = offset; i < offset + length; i++) {
            if (bytes[i] == '\n') {
                line.write(bytes, start, i + 1 - start);
                drain();
                start = i + 1;
            }
        }
        line.write(bytes, start, offset + length - start);
    }

    /** Writes complete lines; a partial line waits for its end (or for {@link #close()}). */
    @Override
    public synchronized void flush() {
        writer.flush();
    }

    @Override
    public synchronized void close() {
        drain();
        writer.flush();
    }

    private void drain() {
        if (line.size() > 0) {
            writer.write(line.toString(StandardCharsets.UTF_8));
            line.reset();
        }
    }
}
