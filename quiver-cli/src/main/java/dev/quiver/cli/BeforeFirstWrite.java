package dev.quiver.cli;

import static java.util.Objects.requireNonNull;

import java.io.PrintWriter;
import java.io.Writer;

/**
 * A writer into {@code out} that runs an action once, before the first character reaches it: the
 * progress line is erased exactly when the result starts to print, whatever the format (a table
 * prints at the end, CSV from its header on).
 */
final class BeforeFirstWrite extends Writer {
    private final PrintWriter out;
    private Runnable action;

    BeforeFirstWrite(PrintWriter out, Runnable action) {
        this.out = requireNonNull(out, "out is null");
        this.action = requireNonNull(action, "action is null");
    }

    @Override
    public void write(char[] text, int offset, int length) {
        if (length == 0) {
            return;
        }
        if (action != null) {
            Runnable once = action;
            action = null;
            once.run();
        }
        out.write(text, offset, length);
    }

    @Override
    public void flush() {
        out.flush();
    }

    /** Leaves {@code out} open: it belongs to the caller. */
    @Override
    public void close() {
        out.flush();
    }
}
