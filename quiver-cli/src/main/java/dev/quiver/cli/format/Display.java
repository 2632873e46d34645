package dev.quiver.cli.format;

/**
 * How much of a result the formats for people show: at most {@code maxRows} rows (0: all), at most
 * {@code maxWidth} characters a line (0: no limit), and the statement's time in the footer when
 * {@code timer} is on. The formats for machines (CSV, JSON) ignore it and print everything.
 *
 * @param maxRows rows the table shows, the first and the last ones, 0 for all of them
 * @param maxWidth the terminal's width, which the table fits by eliding middle columns; 0 for no limit
 * @param timer whether the table's footer carries the statement's wall time
 */
public record Display(int maxRows, int maxWidth, boolean timer) {
    /** DuckDB's default: 40 rows. */
    public static final int DEFAULT_MAX_ROWS = 40;
    public static final Display DEFAULT = new Display(DEFAULT_MAX_ROWS, 0, true);

    public Display {
        if (maxRows < 0) {
            throw new IllegalArgumentException("maxRows must be 0 (all) or positive: " + maxRows);
        }
        if (maxWidth < 0) {
            throw new IllegalArgumentException("maxWidth must be 0 (no limit) or positive: " + maxWidth);
        }
    }

    public Display withMaxRows(int rows) {
        return new Display(rows, maxWidth, timer);
    }

    public Display withMaxWidth(int width) {
        return new Display(maxRows, width, timer);
    }

    public Display withTimer(boolean on) {
        return new Display(maxRows, maxWidth, on);
    }
}
