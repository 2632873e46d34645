package dev.quiver.session.sqllogic;

import java.util.Map;
import java.util.Optional;

/**
 * The TPC-DS statements that do not equal DuckDB's result yet, each with the reason (the feature it
 * waits for). {@link TpcdsTest} asserts each of them still fails; when one passes, delete its line.
 * A key {@code q12} holds in every mode; {@code q12 adaptive} in that mode only.
 */
final class TpcdsFailures {
    // none today: every statement equals DuckDB's (TpcdsDialect for a documented difference)
    private static final Map<String, String> NOT_YET_PASSING = Map.of();

    private TpcdsFailures() {}

    static Optional<String> reason(String statement, RunMode mode) {
        String specific = NOT_YET_PASSING.get(statement + " " + mode.label());
        return Optional.ofNullable(specific != null ? specific : NOT_YET_PASSING.get(statement));
    }
}
