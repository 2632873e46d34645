package dev.quiver.cli.format;

/** The output formats of {@code quiver sql --format}. */
public enum OutputFormat {
    /** Aligned columns for people, with the row count and elapsed time after. */
    TABLE(new TableFormatter()),
    /** RFC 4180 CSV with a header row. */
    CSV(new CsvFormatter()),
    /** JSON Lines: one JSON object per row. */
    JSON(new JsonFormatter());

    private final ResultFormatter formatter;

    OutputFormat(ResultFormatter formatter) {
        this.formatter = formatter;
    }

    public ResultFormatter formatter() {
        return formatter;
    }
}
