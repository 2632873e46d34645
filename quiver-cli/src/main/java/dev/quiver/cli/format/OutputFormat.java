package dev.quiver.cli.format;

import java.util.function.Function;

/** The output formats of {@code quiver sql --format} and the shell's {@code .mode}. */
public enum OutputFormat {
    /** Aligned columns for people, fitted to the terminal, with the row count and elapsed time after. */
    TABLE(TableFormatter::new),
    /** RFC 4180 CSV with a header row. */
    CSV(display -> new CsvFormatter()),
    /** JSON Lines: one JSON object per row. */
    JSON(display -> new JsonFormatter()),
    /** A GitHub-flavoured Markdown table. */
    MARKDOWN(display -> new MarkdownFormatter()),
    /** One {@code column = value} line per column, a blank line between rows. */
    LINE(display -> new LineFormatter());

    private final Function<Display, ResultFormatter> factory;

    OutputFormat(Function<Display, ResultFormatter> factory) {
        this.factory = factory;
    }

    /** This format with the default {@link Display}. */
    public ResultFormatter formatter() {
        return formatter(Display.DEFAULT);
    }

    /** This format showing what {@code display} allows (only the table limits rows and width). */
    public ResultFormatter formatter(Display display) {
        return factory.apply(display);
    }
}
