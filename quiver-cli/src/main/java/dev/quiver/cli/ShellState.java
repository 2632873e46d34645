package dev.quiver.cli;

import static java.util.Objects.requireNonNull;

import dev.quiver.cli.format.Display;
import dev.quiver.cli.format.OutputFormat;

/**
 * What the shell's meta commands change: the output format ({@code .mode}), the rows a table shows
 * ({@code .maxrows}) and whether the time is printed ({@code .timer}). Used by the shell's thread only.
 */
final class ShellState {
    private OutputFormat format;
    private int maxRows;
    private boolean timer;

    ShellState(OutputFormat format, int maxRows, boolean timer) {
        this.format = requireNonNull(format, "format is null");
        this.maxRows = maxRows;
        this.timer = timer;
    }

    OutputFormat format() {
        return format;
    }

    void format(OutputFormat value) {
        format = requireNonNull(value, "value is null");
    }

    int maxRows() {
        return maxRows;
    }

    void maxRows(int value) {
        if (value < 0) {
            throw new IllegalArgumentException("maxRows must not be negative: " + value);
        }
        maxRows = value;
    }

    boolean timer() {
        return timer;
    }

    void timer(boolean value) {
        timer = value;
    }

    /** The display of the next result on a terminal {@code width} characters wide (0: unknown). */
    Display display(int width) {
        return new Display(maxRows, Math.max(0, width), timer);
    }
}
