package dev.quiver.engine.source.csv;

import dev.quiver.engine.types.QuiverTypes;
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
 * type all its sampled non-empty values read as, in the order BIGINT, DECIMAL (every value with a
 * point has the same number of fraction digits, at most 18 digits in all), DOUBLE, DATE
 * ({@code YYYY-MM-DD}), TIMESTAMP, BOOLEAN, else VARCHAR. A column empty in the whole sample is
 * VARCHAR. Every column is nullable.
 */
final class CsvSchemaInference {
    private static final Pattern INTEGER = Pattern.compile("[-+]?\\d{1,18}");
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

    /** The fields for {@code names}, given each column's sampled values (null for NULL). */
    static List<Field> infer(List<String> names, List<List<String>> samples) {
        List<Field> fields = new ArrayList<>(names.size());
        for (int c = 0; c < names.size(); c++) {
            fields.add(QuiverTypes.field(names.get(c), type(samples.get(c)), true));
        }
        return fields;
    }

    private static ArrowType type(List<String> values) {
        List<String> present = values.stream().filter(v -> v != null).toList();
        if (present.isEmpty()) {
            return QuiverTypes.UTF8;
        }
        if (present.stream().allMatch(v -> INTEGER.matcher(v).matches())) {
            return QuiverTypes.INT64;
        }
        ArrowType decimal = decimal(present);
        if (decimal != null) {
            return decimal;
        }
        if (present.stream().allMatch(CsvSchemaInference::isDouble)) {
            return QuiverTypes.FLOAT64;
        }
        if (present.stream().allMatch(v -> DATE.matcher(v).matches())) {
            return QuiverTypes.DATE32;
        }
        if (present.stream().allMatch(v -> TIMESTAMP.matcher(v).matches())) {
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
