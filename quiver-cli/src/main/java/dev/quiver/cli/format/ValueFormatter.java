package dev.quiver.cli.format;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * Renders one non-null value as text, by its column's type: decimals in plain notation with the
 * column's scale, dates as ISO {@code YYYY-MM-DD}, timestamps as {@code YYYY-MM-DD HH:MM:SS[.ffffff]},
 * booleans as {@code true}/{@code false}, doubles in plain notation where that stays short.
 * The same text is used by every output format, so that a value reads the same in each.
 */
public final class ValueFormatter {
    private static final DateTimeFormatter TIMESTAMP = new DateTimeFormatterBuilder()
            .appendPattern("uuuu-MM-dd HH:mm:ss")
            .appendFraction(ChronoField.MICRO_OF_SECOND, 0, 6, true)
            .toFormatter();
    private static final double PLAIN_DOUBLE_MIN = 1e-4;
    private static final double PLAIN_DOUBLE_MAX = 1e16;

    private ValueFormatter() {}

    /** The text of {@code value}, which must not be null, in a column of {@code type}. */
    public static String format(Object value, ArrowType type) {
        if (value instanceof BigDecimal decimal) {
            return formatDecimal(decimal, type);
        }
        if (type instanceof ArrowType.Date) {
            return formatDate(value);
        }
        if (type instanceof ArrowType.Timestamp) {
            return formatTimestamp(value);
        }
        if (value instanceof Double d) {
            return formatDouble(d);
        }
        if (value instanceof Float f) {
            return formatDouble(f.doubleValue());
        }
        if (value instanceof byte[] bytes) {
            return hex(bytes);
        }
        return value.toString();
    }

    private static String formatDecimal(BigDecimal decimal, ArrowType type) {
        if (type instanceof ArrowType.Decimal d && decimal.scale() != d.getScale()) {
            try {
                decimal = decimal.setScale(d.getScale(), RoundingMode.UNNECESSARY);
            } catch (ArithmeticException e) {
                // more digits than the column's scale: show them rather than round silently
            }
        }
        return decimal.toPlainString();
    }

    private static String formatDate(Object value) {
        if (value instanceof Number days) {
            return LocalDate.ofEpochDay(days.longValue()).toString();
        }
        return value.toString();
    }

    private static String formatTimestamp(Object value) {
        if (value instanceof Number micros) {
            long total = micros.longValue();
            long seconds = Math.floorDiv(total, 1_000_000L);
            int nanos = (int) Math.floorMod(total, 1_000_000L) * 1000;
            return LocalDateTime.ofEpochSecond(seconds, nanos, ZoneOffset.UTC).format(TIMESTAMP);
        }
        if (value instanceof LocalDateTime dateTime) {
            return dateTime.format(TIMESTAMP);
        }
        return value.toString();
    }

    private static String formatDouble(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            return Double.toString(d);
        }
        double magnitude = Math.abs(d);
        if (d == 0 || (magnitude >= PLAIN_DOUBLE_MIN && magnitude < PLAIN_DOUBLE_MAX)) {
            // the shortest decimal that reads back as d, without an exponent, and always with a
            // fraction so that a double reads as one
            String plain = BigDecimal.valueOf(d).toPlainString();
            return plain.indexOf('.') < 0 ? plain + ".0" : plain;
        }
        return Double.toString(d);
    }

    private static String hex(byte[] bytes) {
        StringBuilder text = new StringBuilder(bytes.length * 2 + 2).append("\\x");
        for (byte b : bytes) {
            text.append(Character.forDigit((b >> 4) & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
        }
        return text.toString();
    }
}
