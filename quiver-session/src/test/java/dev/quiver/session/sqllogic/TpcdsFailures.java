package dev.quiver.session.sqllogic;

import java.util.Map;
import java.util.Optional;

/**
 * The TPC-DS statements that do not equal DuckDB's result yet, each with the reason (the feature it
 * waits for). {@link TpcdsTest} asserts each of them still fails; when one passes, delete its line.
 * A key {@code q12} holds in every mode; {@code q12 adaptive} in that mode only.
 */
final class TpcdsFailures {
    private static final Map<String, String> NOT_YET_PASSING = Map.ofEntries(
            Map.entry("q12", "window functions (issue 11, window)"),
            Map.entry("q17", "stddev_samp (issue 11, aggregates)"),
            Map.entry("q20", "window functions (issue 11, window)"),
            Map.entry("q21", "integer / integer truncates in Quiver (as in PostgreSQL); Spark's and DuckDB's / gives the fraction the query filters on"),
            Map.entry("q34", "integer / integer truncates in Quiver (as in PostgreSQL); Spark's and DuckDB's / gives the fraction the query filters on"),
            Map.entry("q36", "window functions (issue 11, window)"),
            Map.entry("q39a", "stddev_samp (issue 11, aggregates)"),
            Map.entry("q39b", "stddev_samp (issue 11, aggregates)"),
            Map.entry("q44", "window functions (issue 11, window)"),
            Map.entry("q47", "window functions (issue 11, window)"),
            Map.entry("q49", "window functions (issue 11, window)"),
            Map.entry("q51", "window functions (issue 11, window)"),
            Map.entry("q53", "window functions (issue 11, window)"),
            Map.entry("q57", "window functions (issue 11, window)"),
            Map.entry("q63", "window functions (issue 11, window)"),
            Map.entry("q67", "window functions (issue 11, window)"),
            Map.entry("q70", "window functions (issue 11, window)"),
            Map.entry("q78", "integer / integer truncates in Quiver (as in PostgreSQL); Spark's and DuckDB's / gives a fractional ratio"),
            Map.entry("q86", "window functions (issue 11, window)"),
            Map.entry("q89", "window functions (issue 11, window)"),
            Map.entry("q90", "pmc is 0 at SF 0.01: Quiver raises DIVISION_BY_ZERO, as PostgreSQL does; DuckDB's x / 0 is NULL"),
            Map.entry("q98", "window functions (issue 11, window)"));

    private TpcdsFailures() {}

    static Optional<String> reason(String statement, RunMode mode) {
        String specific = NOT_YET_PASSING.get(statement + " " + mode.label());
        return Optional.ofNullable(specific != null ? specific : NOT_YET_PASSING.get(statement));
    }
}
