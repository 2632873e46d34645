package dev.quiver.engine.expr.kernel;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The text forms of values, as DuckDB writes and reads them: what {@code CAST(x AS VARCHAR)}
 * produces and what {@code CAST('...' AS type)} accepts for DOUBLE and BOOLEAN (TIMESTAMP's are
 * {@link TimestampText}'s).
 */
public final class TextFormats {
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

    /** A double as a decimal of {@code scale}, as DuckDB converts: {@code x * 10^scale} rounded half away from zero in double arithmetic. */
    public static BigDecimal doubleToDecimal(double value, int scale) {
        double scaled = value * Math.pow(10, scale);
        double rounded = RoundingKernels.halfAwayFromZero(scaled);
        BigDecimal unscaled = Math.abs(rounded) < 0x1p62 ? BigDecimal.valueOf((long) rounded) : new BigDecimal(rounded);
        return unscaled.movePointLeft(scale).setScale(scale, RoundingMode.UNNECESSARY);
    }
}
