package dev.quiver.engine.expr.kernel;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The text forms of values, as DuckDB writes and reads them: what {@code CAST(x AS VARCHAR)}
 * produces and what {@code CAST('...' AS type)} accepts for DOUBLE, BOOLEAN and TIMESTAMP.
 */
public final class TextFormats {
    private static final long MICROS_PER_SECOND = 1_000_000L;
    private static final long MICROS_PER_DAY = 86_400L * MICROS_PER_SECOND;
    private static final Pattern DECIMAL_NUMBER = Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");

    private TextFormats() {}

    /**
     * A double as DuckDB prints it: the shortest digits that read back as the same double, fixed
     * notation for decimal exponents -4 to 15 ({@code 100.0}, {@code 0.0001}), scientific beyond
     * ({@code 1e+16}, {@code 1e-05}); {@code nan}, {@code inf}, {@code -inf}.
     */
    public static String formatDouble(double value) {
        if (Double.isNaN(value)) {
            return "nan";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "inf" : "-inf";
        }
        if (value == 0) {
            return 1 / value < 0 ? "-0.0" : "0.0";
        }
        BigDecimal digits = shortest(value).stripTrailingZeros();
        String unscaled = digits.unscaledValue().abs().toString();
        int exponent = unscaled.length() - 1 - digits.scale();
        String sign = value < 0 ? "-" : "";
        if (exponent >= -4 && exponent <= 15) {
            String plain = digits.abs().toPlainString();
            return sign + (plain.indexOf('.') < 0 ? plain + ".0" : plain);
        }
        StringBuilder text = new StringBuilder(sign).append(unscaled.charAt(0));
        if (unscaled.length() > 1) {
            text.append('.').append(unscaled, 1, unscaled.length());
        }
        int magnitude = Math.abs(exponent);
        return text.append('e').append(exponent < 0 ? '-' : '+').append(magnitude < 10 ? "0" : "").append(magnitude).toString();
    }

    /** The shortest decimal that reads back as {@code value}: Java's digits, with a digit dropped while that still round-trips (JDK 17 may print one too many). */
    private static BigDecimal shortest(double value) {
        BigDecimal digits = new BigDecimal(Double.toString(value));
        for (int precision = digits.precision() - 1; precision >= 1; precision--) {
            BigDecimal shorter = digits.round(new MathContext(precision, RoundingMode.HALF_EVEN));
            if (shorter.doubleValue() != value) {
                break;
            }
            digits = shorter;
        }
        return digits;
    }

    /** A DOUBLE from text: decimal or scientific notation, or nan / inf / infinity with an optional sign (any case). */
    public static double parseDouble(String text) {
        String trimmed = text.strip();
        String lower = trimmed.toLowerCase(Locale.ROOT);
        boolean negative = lower.startsWith("-");
        String word = lower.startsWith("-") || lower.startsWith("+") ? lower.substring(1) : lower;
        if (word.equals("inf") || word.equals("infinity")) {
            return negative ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        }
        if (word.equals("nan")) {
            return Double.NaN;
        }
        if (!DECIMAL_NUMBER.matcher(trimmed).matches()) {
            throw new NumberFormatException(text);
        }
        return Double.parseDouble(trimmed);
    }

    /** A BOOLEAN from text as DuckDB reads it: true/t/yes/y/1, false/f/no/n/0 in any case, no spaces; null otherwise. */
    public static Boolean parseBoolean(String text) {
        return switch (text.toLowerCase(Locale.ROOT)) {
            case "true", "t", "yes", "y", "1" -> true;
            case "false", "f", "no", "n", "0" -> false;
            default -> null;
        };
    }

    /** {@code YYYY-MM-DD HH:MM:SS[.ffffff]}, the fraction without trailing zeros (none when zero). */
    public static String formatTimestamp(long micros) {
        long days = Math.floorDiv(micros, MICROS_PER_DAY);
        long inDay = Math.floorMod(micros, MICROS_PER_DAY);
        StringBuilder text = new StringBuilder(26);
        DateKernels.format((int) days, text);
        long seconds = inDay / MICROS_PER_SECOND;
        text.append(' ');
        two(text, seconds / 3600).append(':');
        two(text, seconds / 60 % 60).append(':');
        two(text, seconds % 60);
        long fraction = inDay % MICROS_PER_SECOND;
        if (fraction != 0) {
            String digits = Long.toString(fraction + MICROS_PER_SECOND).substring(1);
            int end = digits.length();
            while (digits.charAt(end - 1) == '0') {
                end--;
            }
            text.append('.').append(digits, 0, end);
        }
        return text.toString();
    }

    private static StringBuilder two(StringBuilder text, long value) {
        return text.append((char) ('0' + value / 10)).append((char) ('0' + value % 10));
    }

    /**
     * A TIMESTAMP (microseconds) from {@code YYYY-MM-DD[( |T)H[H]:M[M][:S[S][.fraction]]]} with
     * surrounding spaces; fraction digits beyond microseconds are dropped. {@code Long.MIN_VALUE} if invalid.
     */
    public static long parseTimestamp(String text) {
        String trimmed = text.strip();
        int split = Math.max(trimmed.indexOf(' '), trimmed.indexOf('T'));
        long days = DateKernels.parse(split < 0 ? trimmed : trimmed.substring(0, split));
        if (days == Long.MIN_VALUE) {
            return Long.MIN_VALUE;
        }
        long time = split < 0 ? 0 : parseTime(trimmed.substring(split + 1).strip());
        return time < 0 ? Long.MIN_VALUE : days * MICROS_PER_DAY + time;
    }

    /** Microseconds into the day of {@code H[H]:M[M][:S[S][.fraction]]}, or -1. */
    private static long parseTime(String text) {
        String[] parts = text.split(":", -1);
        if (parts.length < 2 || parts.length > 3) {
            return -1;
        }
        long hours = number(parts[0], 2);
        long minutes = number(parts[1], 2);
        long micros = 0;
        long seconds = 0;
        if (parts.length == 3) {
            String second = parts[2];
            int dot = second.indexOf('.');
            seconds = number(dot < 0 ? second : second.substring(0, dot), 2);
            if (dot >= 0) {
                String fraction = second.substring(dot + 1);
                if (fraction.isEmpty() || number(fraction, 9) < 0) {
                    return -1;
                }
                micros = Long.parseLong((fraction + "000000").substring(0, 6));
            }
        }
        if (hours < 0 || hours > 23 || minutes < 0 || minutes > 59 || seconds < 0 || seconds > 59) {
            return -1;
        }
        return ((hours * 60 + minutes) * 60 + seconds) * MICROS_PER_SECOND + micros;
    }

    /** The value of 1 to {@code maxDigits} decimal digits, or -1. */
    private static long number(String digits, int maxDigits) {
        if (digits.isEmpty() || digits.length() > maxDigits) {
            return -1;
        }
        long value = 0;
        for (int i = 0; i < digits.length(); i++) {
            char c = digits.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + c - '0';
        }
        return value;
    }

    /** A double as a decimal of {@code scale}, as DuckDB converts: {@code x * 10^scale} rounded half away from zero in double arithmetic. */
    public static BigDecimal doubleToDecimal(double value, int scale) {
        double scaled = value * Math.pow(10, scale);
        double rounded = RoundingKernels.halfAwayFromZero(scaled);
        BigDecimal unscaled = Math.abs(rounded) < 0x1p62 ? BigDecimal.valueOf((long) rounded) : new BigDecimal(rounded);
        return unscaled.movePointLeft(scale).setScale(scale, RoundingMode.UNNECESSARY);
    }
}
