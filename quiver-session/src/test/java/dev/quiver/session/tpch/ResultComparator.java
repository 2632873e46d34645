package dev.quiver.session.tpch;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Compares a Quiver result with an oracle's, value by value, reading each expected value by the
 * type of the Quiver column:
 *
 * <ul>
 * <li>DECIMAL against an exact oracle value (an answer file's text, a DuckDB DECIMAL): when the
 *     oracle printed no more decimals than Quiver's type has, Quiver's value rounded HALF_UP to the
 *     oracle's scale must equal it exactly ({@code 25.5775} printed as {@code 25.58}, a whole
 *     {@code 380456} for a DECIMAL(38,2) sum). When the oracle is more precise than Quiver's type
 *     (a division whose type Quiver keeps at scale 6, an answer printed from a double), they must
 *     differ by less than one unit of Quiver's last digit, whichever way Quiver rounded.</li>
 * <li>anything against an oracle double (DuckDB's AVG and decimal division): relative 1e-9, or
 *     within one unit of Quiver's last decimal digit;</li>
 * <li>DOUBLE: relative 1e-9, or equal once rounded HALF_UP to the decimals an exact oracle printed;</li>
 * <li>integers: equal as numbers;</li>
 * <li>DATE (days since the epoch): equal to the oracle's date ({@code yyyy-MM-dd} text, LocalDate,
 *     java.sql.Date, Integer days);</li>
 * <li>VARCHAR: equal after trimming both (answer files drop trailing blanks).</li>
 * </ul>
 *
 * Rows are compared in order: every TPC-H query orders its result, on keys that leave no ties.
 */
public final class ResultComparator {
    private static final double RELATIVE_TOLERANCE = 1e-9;

    private ResultComparator() {}

    /** Fails with a message naming the first difference, if any. */
    public static void assertMatches(String label, Schema schema, List<List<Object>> actual, List<List<Object>> expected) {
        difference(schema, actual, expected).ifPresent(message -> {
            throw new AssertionError(label + ": " + message);
        });
    }

    /** The first difference between the two results, described for a person; empty if they match. */
    public static Optional<String> difference(Schema schema, List<List<Object>> actual, List<List<Object>> expected) {
        List<Field> fields = schema.getFields();
        if (actual.size() != expected.size()) {
            return Optional.of("expected " + expected.size() + " rows but got " + actual.size()
                    + sample("expected", expected) + sample("actual", actual));
        }
        for (int r = 0; r < actual.size(); r++) {
            List<Object> actualRow = actual.get(r);
            List<Object> expectedRow = expected.get(r);
            if (actualRow.size() != fields.size() || expectedRow.size() != fields.size()) {
                return Optional.of("row " + r + ": expected " + fields.size() + " columns: expected " + expectedRow + ", actual " + actualRow);
            }
            for (int c = 0; c < fields.size(); c++) {
                Optional<String> mismatch = compareValue(fields.get(c).getType(), actualRow.get(c), expectedRow.get(c));
                if (mismatch.isPresent()) {
                    return Optional.of("row " + r + ", column " + fields.get(c).getName() + ": " + mismatch.get()
                            + "\n  expected row " + expectedRow + "\n  actual row   " + actualRow);
                }
            }
        }
        return Optional.empty();
    }

    /** Why {@code actual} (a Quiver value of {@code type}) does not match the oracle's {@code expected}; empty if it does. */
    public static Optional<String> compareValue(ArrowType type, Object actual, Object expected) {
        if (actual == null || expected == null) {
            return actual == expected ? Optional.empty() : Optional.of("expected " + expected + " but got " + actual);
        }
        boolean matches;
        if (type instanceof ArrowType.Decimal) {
            matches = decimalMatches((BigDecimal) actual, expected);
        } else if (type instanceof ArrowType.FloatingPoint) {
            matches = closeEnough(((Number) actual).doubleValue(), toDouble(expected), 0) || printedAs((Double) actual, expected);
        } else if (type instanceof ArrowType.Int) {
            matches = expected instanceof Double || expected instanceof Float
                    ? closeEnough(((Number) actual).doubleValue(), toDouble(expected), 0)
                    : new BigDecimal(actual.toString()).compareTo(toBigDecimal(expected)) == 0;
        } else if (type instanceof ArrowType.Date) {
            matches = LocalDate.ofEpochDay(((Number) actual).longValue()).equals(toDate(expected));
        } else if (type instanceof ArrowType.Utf8) {
            matches = actual.toString().trim().equals(expected.toString().trim());
        } else {
            matches = actual.equals(expected);
        }
        return matches ? Optional.empty()
                : Optional.of("expected " + expected + " (" + expected.getClass().getSimpleName() + ") but got " + actual);
    }

    private static boolean decimalMatches(BigDecimal actual, Object expected) {
        if (expected instanceof Double || expected instanceof Float) {
            return closeEnough(actual.doubleValue(), ((Number) expected).doubleValue(), Math.pow(10, -actual.scale()));
        }
        BigDecimal exact = toBigDecimal(expected);
        if (exact.scale() <= actual.scale()) {
            return actual.setScale(exact.scale(), RoundingMode.HALF_UP).compareTo(exact) == 0;
        }
        BigDecimal unit = BigDecimal.ONE.movePointLeft(actual.scale());
        return actual.subtract(exact).abs().compareTo(unit) < 0;
    }

    /** Whether the oracle printed {@code actual} rounded to fewer decimals (an answer file's 25.58 for an average). */
    private static boolean printedAs(double actual, Object expected) {
        if (!(expected instanceof String || expected instanceof BigDecimal) || !Double.isFinite(actual)) {
            return false;
        }
        BigDecimal printed = toBigDecimal(expected);
        return BigDecimal.valueOf(actual).setScale(Math.max(0, printed.scale()), RoundingMode.HALF_UP).compareTo(printed) == 0;
    }

    private static boolean closeEnough(double actual, double expected, double absolute) {
        double diff = Math.abs(actual - expected);
        return diff <= absolute || diff <= RELATIVE_TOLERANCE * Math.max(Math.abs(actual), Math.abs(expected)) || diff < 1e-12;
    }

    private static BigDecimal toBigDecimal(Object value) {
        if (value instanceof BigDecimal decimal) {
            return decimal;
        }
        return new BigDecimal(value.toString().trim());
    }

    private static double toDouble(Object value) {
        return value instanceof Number number ? number.doubleValue() : Double.parseDouble(value.toString().trim());
    }

    private static LocalDate toDate(Object value) {
        if (value instanceof LocalDate date) {
            return date;
        }
        if (value instanceof Integer days) {
            return LocalDate.ofEpochDay(days);
        }
        if (value instanceof java.sql.Date date) {
            return date.toLocalDate();
        }
        return LocalDate.parse(value.toString().trim());
    }

    private static String sample(String label, List<List<Object>> rows) {
        return "\n  " + label + " (first rows): " + rows.subList(0, Math.min(5, rows.size()));
    }
}
