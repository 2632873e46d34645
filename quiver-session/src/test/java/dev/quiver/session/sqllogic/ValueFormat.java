package dev.quiver.session.sqllogic;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Optional;

/**
 * The canonical text of one result value, the same for Quiver's and DuckDB's Java values, as it
 * is written in {@code .slt} files (README.md beside the files shows each rule):
 * <ul>
 *   <li>NULL is {@code NULL}; booleans {@code true}/{@code false};
 *   <li>integers in decimal digits; decimals at their scale ({@code 1.50});
 *   <li>doubles rounded to {@value #DOUBLE_DIGITS} significant digits, without trailing zeros,
 *       plain from 1e-6 to 1e16 and in E notation outside; {@code NaN}, {@code inf}, {@code -inf}, {@code -0};
 *   <li>dates {@code 2024-01-15}; timestamps {@code 2024-01-15 10:30:00[.ffffff]} (fraction without trailing zeros);
 *   <li>text as it is, unless it is empty, is {@code NULL}, starts with {@code "}, starts or ends
 *       with a space, or holds a control character: then in double quotes with {@code \\ \" \n \t \r \\uXXXX} escapes.
 * </ul>
 * Values of a row are separated by a tab.
 */
final class ValueFormat {
    /** Significant digits a double keeps in the canonical text. */
    static final int DOUBLE_DIGITS = 12;
    static final String NULL = "NULL";

    private static final MathContext DOUBLE_CONTEXT = new MathContext(DOUBLE_DIGITS, RoundingMode.HALF_EVEN);
    private static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss");

    private ValueFormat() {}

    /**
     * The text of {@code value}: a Java value as Quiver returns it ({@link dev.quiver.engine.types.QuiverTypes})
     * or as DuckDB's JDBC driver does, read as a column of {@code type}.
     */
    static String format(Object value, ColumnType type) {
        if (value == null) {
            return NULL;
        }
        return switch (type) {
            case INTEGER -> integer(value);
            case FLOAT -> ofDouble(((Number) value).doubleValue());
            case DECIMAL -> value instanceof BigDecimal d ? d.toPlainString() : new BigDecimal(value.toString()).toPlainString();
            case BOOLEAN -> value.toString();
            case DATE -> date(value);
            case TIMESTAMP -> timestamp(value);
            case TEXT, OTHER -> text(value.toString());
        };
    }

    private static String integer(Object value) {
        if (value instanceof BigInteger || value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return value.toString();
        }
        throw new IllegalArgumentException("not an integer value: " + value + " (" + value.getClass().getName() + ")");
    }

    static String ofDouble(double value) {
        if (Double.isNaN(value)) {
            return "NaN";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "inf" : "-inf";
        }
        if (value == 0) {
            return Double.doubleToRawLongBits(value) == 0 ? "0" : "-0";
        }
        BigDecimal rounded = new BigDecimal(value).round(DOUBLE_CONTEXT).stripTrailingZeros();
        int exponent = rounded.precision() - rounded.scale() - 1;
        return exponent >= -6 && exponent < 16 ? rounded.toPlainString() : rounded.toString();
    }

    private static String date(Object value) {
        if (value instanceof Integer days) {
            return LocalDate.ofEpochDay(days).toString();
        }
        if (value instanceof LocalDate date) {
            return date.toString();
        }
        if (value instanceof java.sql.Date date) {
            return date.toLocalDate().toString();
        }
        return value.toString();
    }

    private static String timestamp(Object value) {
        LocalDateTime time;
        if (value instanceof Long micros) {
            time = LocalDateTime.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), (int) Math.floorMod(micros, 1_000_000L) * 1000, ZoneOffset.UTC);
        } else if (value instanceof LocalDateTime local) {
            time = local;
        } else if (value instanceof java.sql.Timestamp stamp) {
            time = stamp.toLocalDateTime();
        } else {
            return value.toString();
        }
        String text = time.format(SECONDS);
        int micros = time.getNano() / 1000;
        if (micros == 0) {
            return text;
        }
        String fraction = String.format("%06d", micros).replaceAll("0+$", "");
        return text + "." + fraction;
    }

    static String text(String value) {
        if (!needsQuotes(value)) {
            return value;
        }
        StringBuilder out = new StringBuilder(value.length() + 2).append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '\\' -> out.append("\\\\");
                case '"' -> out.append("\\\"");
                case '\n' -> out.append("\\n");
                case '\t' -> out.append("\\t");
                case '\r' -> out.append("\\r");
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }

    private static boolean needsQuotes(String value) {
        if (value.isEmpty() || value.equals(NULL) || value.startsWith("\"") || value.startsWith(" ") || value.endsWith(" ")) {
            return true;
        }
        return value.chars().anyMatch(c -> c < 0x20 || c == 0x7f);
    }

    /** The number a canonical text stands for, if it is one: {@code NaN}, {@code inf} and {@code -inf} as doubles. */
    static Optional<Number> parseNumber(String text) {
        switch (text) {
            case "NaN":
                return Optional.of(Double.NaN);
            case "inf":
                return Optional.of(Double.POSITIVE_INFINITY);
            case "-inf":
                return Optional.of(Double.NEGATIVE_INFINITY);
            default:
                break;
        }
        if (text.isEmpty() || !(Character.isDigit(text.charAt(0)) || text.charAt(0) == '-')) {
            return Optional.empty();
        }
        try {
            return Optional.of(new BigDecimal(text));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
