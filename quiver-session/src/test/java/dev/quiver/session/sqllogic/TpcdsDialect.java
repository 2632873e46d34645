package dev.quiver.session.sqllogic;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The TPC-DS statements whose DuckDB answer differs from Quiver's by a documented dialect
 * difference (docs/sql.md, Division), and how: DuckDB 2.0 divides decimals in DOUBLE, so a
 * {@code 0 / 0} of decimals is NaN there; Quiver's quotient is a DECIMAL, which has no NaN, and the
 * TPC-DS run sets {@code division_by_zero = 'null'}. {@link TpcdsTest} compares these statements
 * with DuckDB's rows with each NaN value read as NULL; every other value must still be equal.
 */
final class TpcdsDialect {
    private static final Map<String, String> NAN_AS_NULL = Map.of(
            "q12", "an i_class whose revenue sums to 0 at SF 0.01: itemrevenue * 100 / sum(itemrevenue) over (...) is 0 / 0",
            "q90", "no web sales in the pm hours at SF 0.01: amc / pmc is 0 / 0");

    private TpcdsDialect() {}

    /** Why the statement's DuckDB rows are read differently, if they are. */
    static Optional<String> reason(String statement) {
        return Optional.ofNullable(NAN_AS_NULL.get(statement)).map(why -> "DuckDB's NaN of a decimal 0 / 0 is NULL in Quiver: " + why);
    }

    /** DuckDB's rows of the statement as Quiver's dialect gives them. */
    static List<String> expected(String statement, List<String> duckDbLines) {
        if (!NAN_AS_NULL.containsKey(statement)) {
            return duckDbLines;
        }
        return duckDbLines.stream()
                .map(line -> Arrays.stream(line.split("\t", -1)).map(value -> value.equals("NaN") ? "NULL" : value).collect(Collectors.joining("\t")))
                .toList();
    }
}
