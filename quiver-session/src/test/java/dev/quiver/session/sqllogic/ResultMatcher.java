package dev.quiver.session.sqllogic;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Compares a query's result with the rows its record expects (README.md beside the files states the
 * rules). Each value is rendered by {@link ValueFormat}; equal text matches. Where the texts differ,
 * two numbers still match when they agree to the digits the less precise of them has: exact numbers
 * (integers, decimals) within half a unit of the smaller scale, doubles within a relative
 * {@value #RELATIVE_TOLERANCE} — so Quiver's DECIMAL(38,6) quotient matches DuckDB's double rounded
 * to 6 places, and a sum of doubles added in another order matches.
 */
final class ResultMatcher {
    static final double RELATIVE_TOLERANCE = 1e-9;
    private static final BigDecimal ABSOLUTE_TOLERANCE = new BigDecimal("1e-12");
    private static final int SHOWN_ROWS = 40;

    private ResultMatcher() {}

    /** The rows of a result as canonical lines, each value rendered by its own column type. */
    static List<String> lines(Schema schema, List<List<Object>> rows) {
        List<ColumnType> types = schema.getFields().stream().map(Field::getType).map(ColumnType::ofArrow).toList();
        return lines(types, rows);
    }

    static List<String> lines(List<ColumnType> types, List<List<Object>> rows) {
        List<String> lines = new ArrayList<>(rows.size());
        for (List<Object> row : rows) {
            List<String> values = new ArrayList<>(row.size());
            for (int c = 0; c < row.size(); c++) {
                values.add(ValueFormat.format(row.get(c), types.get(c)));
            }
            lines.add(String.join("\t", values));
        }
        return lines;
    }

    /** Sorted copies for {@code rowsort}, unchanged for {@code nosort}. */
    static List<String> arranged(List<String> lines, SltRecord.SortMode mode) {
        List<String> copy = new ArrayList<>(lines);
        if (mode == SltRecord.SortMode.ROWSORT) {
            copy.sort(null);
        }
        return copy;
    }

    /** Why {@code actual} does not match the expected rows of {@code query}, or empty if it does. */
    static Optional<String> mismatch(SltRecord.Query query, List<String> expected, Schema schema, List<List<Object>> rows) {
        return mismatch(query.types(), query.sortMode(), expected, schema, rows);
    }

    /** Why the rows of {@code schema} do not match {@code expected} rows of {@code types}, or empty if they do. */
    static Optional<String> mismatch(List<ColumnType> types, SltRecord.SortMode sortMode, List<String> expected, Schema schema, List<List<Object>> rows) {
        List<ColumnType> actualTypes = schema.getFields().stream().map(Field::getType).map(ColumnType::ofArrow).toList();
        if (actualTypes.size() != types.size()) {
            return Optional.of("expected " + types.size() + " columns (" + letters(types) + "), the result has " + actualTypes.size()
                    + " (" + letters(actualTypes) + ")");
        }
        for (int c = 0; c < actualTypes.size(); c++) {
            if (!types.get(c).accepts(actualTypes.get(c))) {
                return Optional.of("column " + (c + 1) + " (" + schema.getFields().get(c).getName() + ") is " + actualTypes.get(c).letter()
                        + ", expected " + types.get(c).letter() + " (types " + letters(actualTypes) + " vs " + letters(types) + ")");
            }
        }
        List<String> want = arranged(expected, sortMode);
        List<String> got = arranged(lines(actualTypes, rows), sortMode);
        Optional<String> difference = firstDifference(types, want, actualTypes, got);
        if (difference.isPresent() && sortMode == SltRecord.SortMode.ROWSORT && matchOneToOne(types, want, actualTypes, got)) {
            return Optional.empty();
        }
        return difference.map(d -> d + "\n" + listing("expected", want) + listing("actual", got));
    }

    /**
     * Whether every expected row matches a row of its own among the actual ones: for {@code rowsort}
     * results whose numbers match only within the tolerance, and so sort differently as text
     * ({@code -100000000000000.00} before {@code -7.00}, {@code -99999999999999.9999} after it).
     * Rows with equal text pair first; the rest pair greedily.
     */
    private static boolean matchOneToOne(List<ColumnType> expectedTypes, List<String> want, List<ColumnType> actualTypes, List<String> got) {
        if (want.size() != got.size()) {
            return false;
        }
        Map<String, Integer> unmatched = new HashMap<>();
        got.forEach(line -> unmatched.merge(line, 1, Integer::sum));
        List<String> leftWant = new ArrayList<>();
        for (String line : want) {
            if (unmatched.getOrDefault(line, 0) > 0) {
                unmatched.merge(line, -1, Integer::sum);
            } else {
                leftWant.add(line);
            }
        }
        List<String> leftGot = new ArrayList<>();
        unmatched.forEach((line, count) -> leftGot.addAll(Collections.nCopies(count, line)));
        for (String line : leftWant) {
            String[] expectedValues = line.split("\t", -1);
            int partner = -1;
            for (int g = 0; g < leftGot.size() && partner < 0; g++) {
                if (rowMatches(expectedValues, expectedTypes, leftGot.get(g).split("\t", -1), actualTypes)) {
                    partner = g;
                }
            }
            if (partner < 0) {
                return false;
            }
            leftGot.remove(partner);
        }
        return true;
    }

    private static boolean rowMatches(String[] expectedValues, List<ColumnType> expectedTypes, String[] actualValues, List<ColumnType> actualTypes) {
        if (expectedValues.length != actualValues.length) {
            return false;
        }
        for (int c = 0; c < expectedValues.length; c++) {
            if (!valuesMatch(expectedValues[c], expectedTypes.get(c), actualValues[c], actualTypes.get(c))) {
                return false;
            }
        }
        return true;
    }

    private static Optional<String> firstDifference(List<ColumnType> expectedTypes, List<String> want, List<ColumnType> actualTypes, List<String> got) {
        for (int r = 0; r < Math.min(want.size(), got.size()); r++) {
            String[] expectedValues = want.get(r).split("\t", -1);
            String[] actualValues = got.get(r).split("\t", -1);
            if (expectedValues.length != actualValues.length) {
                return Optional.of("row " + (r + 1) + " has " + expectedValues.length + " values in the file and " + actualValues.length + " in the result");
            }
            for (int c = 0; c < expectedValues.length; c++) {
                if (!valuesMatch(expectedValues[c], expectedTypes.get(c), actualValues[c], actualTypes.get(c))) {
                    return Optional.of("row " + (r + 1) + " column " + (c + 1) + ": expected " + expectedValues[c] + ", got " + actualValues[c]);
                }
            }
        }
        if (want.size() != got.size()) {
            return Optional.of("expected " + want.size() + " rows, got " + got.size());
        }
        return Optional.empty();
    }

    static boolean valuesMatch(String expected, ColumnType expectedType, String actual, ColumnType actualType) {
        if (expected.equals(actual)) {
            return true;
        }
        if (!isNumeric(expectedType) || !isNumeric(actualType)) {
            return false;
        }
        Optional<Number> e = ValueFormat.parseNumber(expected);
        Optional<Number> a = ValueFormat.parseNumber(actual);
        if (e.isEmpty() || a.isEmpty()) {
            return false;
        }
        if (e.get() instanceof Double || a.get() instanceof Double) {
            // NaN or an infinity on one side: their texts would have been equal
            return false;
        }
        return numbersMatch((BigDecimal) e.get(), expectedType == ColumnType.FLOAT, (BigDecimal) a.get(), actualType == ColumnType.FLOAT);
    }

    private static boolean numbersMatch(BigDecimal expected, boolean expectedFloat, BigDecimal actual, boolean actualFloat) {
        BigDecimal difference = expected.subtract(actual).abs();
        if (difference.signum() == 0) {
            return true;
        }
        if (expectedFloat || actualFloat) {
            BigDecimal scale = expected.abs().max(actual.abs());
            if (difference.doubleValue() <= RELATIVE_TOLERANCE * scale.doubleValue() || difference.compareTo(ABSOLUTE_TOLERANCE) <= 0) {
                return true;
            }
        }
        if (expectedFloat && actualFloat) {
            return false;
        }
        int digits = Math.min(expectedFloat ? Integer.MAX_VALUE : Math.max(0, expected.scale()), actualFloat ? Integer.MAX_VALUE : Math.max(0, actual.scale()));
        BigDecimal halfUnit = new BigDecimal(BigInteger.valueOf(5), digits + 1);
        return difference.compareTo(halfUnit) <= 0;
    }

    private static boolean isNumeric(ColumnType type) {
        return type == ColumnType.INTEGER || type == ColumnType.DECIMAL || type == ColumnType.FLOAT;
    }

    static String letters(List<ColumnType> types) {
        StringBuilder out = new StringBuilder();
        types.forEach(t -> out.append(t.letter()));
        return out.toString();
    }

    private static String listing(String title, List<String> lines) {
        StringBuilder out = new StringBuilder("--- ").append(title).append(" (").append(lines.size()).append(" rows)\n");
        lines.stream().limit(SHOWN_ROWS).forEach(line -> out.append(line).append('\n'));
        if (lines.size() > SHOWN_ROWS) {
            out.append("... ").append(lines.size() - SHOWN_ROWS).append(" more\n");
        }
        return out.toString();
    }
}
