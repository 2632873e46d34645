package dev.quiver.engine.source.csv;

import dev.quiver.engine.types.QuiverTypes;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Infers CSV column types from the header and a sample of rows: each column gets the narrowest
 * type all its sampled non-NULL values read as, in the order BIGINT (integers that fit 64 bits),
 * DECIMAL(38,0) (longer integers, up to 38 digits), DECIMAL (every value with a point has the same
 * number of fraction digits, at most 18 digits in all), DOUBLE, DATE ({@code YYYY-MM-DD}, a real
 * date), TIMESTAMP, BOOLEAN, else VARCHAR: one value that reads as none of them (a date column
 * with one {@code 2024-02-30}) makes the column VARCHAR. A number with a leading zero
 * ({@code 0012}) is not a number, as DuckDB has it (codes, not quantities). A column NULL in the
 * whole sample is VARCHAR. Every column is nullable.
 */
final class CsvSchemaInference {
    private static final Pattern INTEGER = Pattern.compile("[-+]?\\d{1,18}");
    private static final Pattern LONG_INTEGER = Pattern.compile("[-+]?\\d{1,38}");
    private static final Pattern LEADING_ZERO = Pattern.compile("[-+]?0\\d.*");
    private static final Pattern DECIMAL = Pattern.compile("[-+]?(\\d*)\\.(\\d+)");
    private static final Pattern DATE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}");
    private static final Pattern TIMESTAMP = Pattern.compile("\\d{4}-\\d{2}-\\d{2}[ T]\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,6})?");
    private static final int DECIMAL_PRECISION = 18;

    private CsvSchemaInference() {}

    /** Column names from the header: blank ones become {@code column_N}, repeated ones get a suffix. */
    static List<String> columnNames(List<String> header) {
        List<String> names = new ArrayList<>(header.size());
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < header.size(); i++) {
            String name = header.get(i).strip();
            if (name.isEmpty()) {
                name = "column_" + (i + 1);
            }
            String unique = name;
            for (int n = 2; !seen.add(unique.toLowerCase(Locale.ROOT)); n++) {
                unique = name + "_" + n;
            }
            names.add(unique);
        }
        return names;
    }

    /** DuckDB's names of the columns of a file without a header: {@code column0}, or {@code column00} when there are ten or more. */
    static List<String> generatedNames(int count) {
        int digits = Integer.toString(Math.max(0, count - 1)).length();
        List<String> names = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String number = Integer.toString(i);
            names.add("column" + "0".repeat(digits - number.length()) + number);
        }
        return names;
    }

    /** The fields for {@code names}, given each column's sampled values (null for NULL). */
    static List<Field> infer(List<String> names, List<List<String>> samples) {
        List<Field> fields = new ArrayList<>(names.size());
        for (int c = 0; c < names.size(); c++) {
            fields.add(QuiverTypes.field(names.get(c), type(samples.get(c)), true));
        }
        return fields;
    }

    /** Whether {@code value} (not NULL) reads as a value of {@code type}, as a scan would read it. */
    static boolean readsAs(String value, ArrowType type) {
        if (type instanceof ArrowType.Utf8) {
            return true;
        }
        if (type instanceof ArrowType.Int) {
            return LONG_INTEGER.matcher(value).matches() && fitsLong(value);
        }
        if (type instanceof ArrowType.Decimal || type instanceof ArrowType.FloatingPoint) {
            return isDouble(value);
        }
        if (type instanceof ArrowType.Date) {
            return isDate(value);
        }
        if (type instanceof ArrowType.Timestamp) {
            return isTimestamp(value);
        }
        if (type instanceof ArrowType.Bool) {
            return value.equalsIgnoreCase("true") || value.equalsIgnoreCase("false");
        }
        return false;
    }

    private static boolean fitsLong(String value) {
        try {
            Long.parseLong(value);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private static boolean isDate(String value) {
        if (!DATE.matcher(value).matches()) {
            return false;
        }
        try {
            LocalDate.parse(value);
            return true;
        } catch (DateTimeParseException e) {
            return false;
        }
    }

    private static boolean isTimestamp(String value) {
        if (!TIMESTAMP.matcher(value).matches()) {
            return false;
        }
        try {
            LocalDateTime.parse(value.replace(' ', 'T'));
            return true;
        } catch (DateTimeParseException e) {
            return false;
        }
    }

    private static ArrowType type(List<String> values) {
        List<String> present = values.stream().filter(v -> v != null).toList();
        if (present.isEmpty()) {
            return QuiverTypes.UTF8;
        }
        if (present.stream().anyMatch(v -> LEADING_ZERO.matcher(v).matches())) {
            return temporalOrText(present);
        }
        if (present.stream().allMatch(v -> LONG_INTEGER.matcher(v).matches())) {
            if (present.stream().allMatch(CsvSchemaInference::fitsLong)) {
                return QuiverTypes.INT64;
            }
            return QuiverTypes.decimal(QuiverTypes.MAX_DECIMAL_PRECISION, 0);
        }
        ArrowType decimal = decimal(present);
        if (decimal != null) {
            return decimal;
        }
        if (present.stream().allMatch(CsvSchemaInference::isDouble)) {
            return QuiverTypes.FLOAT64;
        }
        return temporalOrText(present);
    }

    private static ArrowType temporalOrText(List<String> present) {
        if (present.stream().allMatch(CsvSchemaInference::isDate)) {
            return QuiverTypes.DATE32;
        }
        if (present.stream().allMatch(CsvSchemaInference::isTimestamp)) {
            return QuiverTypes.TIMESTAMP;
        }
        if (present.stream().allMatch(v -> v.equalsIgnoreCase("true") || v.equalsIgnoreCase("false"))) {
            return QuiverTypes.BOOLEAN;
        }
        return QuiverTypes.UTF8;
    }

    private static ArrowType decimal(List<String> values) {
        int scale = -1;
        int integerDigits = 0;
        for (String value : values) {
            if (INTEGER.matcher(value).matches()) {
                integerDigits = Math.max(integerDigits, value.replaceAll("[-+]", "").length());
                continue;
            }
            Matcher matcher = DECIMAL.matcher(value);
            if (!matcher.matches()) {
                return null;
            }
            int fraction = matcher.group(2).length();
            if (scale >= 0 && scale != fraction) {
                return null;
            }
            scale = fraction;
            integerDigits = Math.max(integerDigits, matcher.group(1).length());
        }
        // room for values a few digits longer than the sample's
        if (scale < 0 || integerDigits + scale > DECIMAL_PRECISION - 3) {
            return null;
        }
        return QuiverTypes.decimal(DECIMAL_PRECISION, scale);
    }

    private static boolean isDouble(String value) {
        char last = value.charAt(value.length() - 1);
        if (!Character.isDigit(last) && last != '.' && !value.equalsIgnoreCase("nan") && !value.endsWith("Infinity")) {
            return false; // Double.parseDouble accepts "1d", "2f"
        }
        try {
            Double.parseDouble(value);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
