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
            Map.entry("q21", "integer / integer truncates in Quiver (as in PostgreSQL); Spark's and DuckDB's / gives the fraction the query filters on"),
            Map.entry("q34", "integer / integer truncates in Quiver (as in PostgreSQL); Spark's and DuckDB's / gives the fraction the query filters on"),
            Map.entry("q78", "integer / integer truncates in Quiver (as in PostgreSQL); Spark's and DuckDB's / gives a fractional ratio"),
            Map.entry("q90", "pmc is 0 at SF 0.01: Quiver raises DIVISION_BY_ZERO, as PostgreSQL does; DuckDB's x / 0 is NULL"));

    private TpcdsFailures() {}

    static Optional<String> reason(String statement, RunMode mode) {
        String specific = NOT_YET_PASSING.get(statement + " " + mode.label());
        return Optional.ofNullable(specific != null ? specific : NOT_YET_PASSING.get(statement));
    }
}
