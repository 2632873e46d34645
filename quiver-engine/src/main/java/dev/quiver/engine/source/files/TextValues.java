package dev.quiver.engine.source.files;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeParseException;
import java.util.regex.Pattern;

/**
 * Whether text spells a value of a type, for the inference of types from text (CSV samples, Hive
 * partition values): a real date or timestamp, not just the pattern of one; an integer that fits.
 */
public final class TextValues {
    private static final Pattern DATE = Pattern.compile("\\d{4}-\\d{2}-\\d{2}");
    private static final Pattern TIMESTAMP = Pattern.compile("\\d{4}-\\d{2}-\\d{2}[ T]\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,6})?");

    private TextValues() {}

    /** {@code YYYY-MM-DD} naming a day that exists. */
    public static boolean isDate(String value) {
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

    /** {@code YYYY-MM-DD HH:MM:SS[.ffffff]} (or with a {@code T}) naming a time that exists. */
    public static boolean isTimestamp(String value) {
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

    /** An integer in decimal digits that a {@code long} holds. */
    public static boolean fitsLong(String value) {
        try {
            Long.parseLong(value);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
