package dev.quiver.engine.expr.kernel;

/**
 * TIMESTAMP values as text, the way DuckDB and PostgreSQL write and read them:
 * {@code 2024-01-05 13:04:05}, with a fraction only when there is one ({@code .5}, {@code .000001}).
 * Parsing accepts a date alone (midnight), {@code T} or a space before the time, minutes without
 * seconds, up to nine fractional digits (truncated to microseconds) and a trailing zone
 * ({@code Z}, {@code +02}, {@code -05:30}), which a TIMESTAMP has no room for and ignores, as
 * PostgreSQL does.
 */
public final class TimestampText {
    /** What {@link #parse} returns for text that is not a timestamp. */
    public static final long INVALID = Long.MIN_VALUE;

    private TimestampText() {}

    /** Appends the timestamp {@code micros} to {@code out}. */
    public static void format(long micros, StringBuilder out) {
        DateKernels.format(DateKernels.days(micros), out);
        out.append(' ');
        formatTime(DateKernels.microsOfDay(micros), out);
    }

    public static String format(long micros) {
        StringBuilder out = new StringBuilder(26);
        format(micros, out);
        return out.toString();
    }

    /** Appends {@code HH:MM:SS[.ffffff]} (trailing zeros of the fraction dropped). */
    static void formatTime(long microsOfDay, StringBuilder out) {
        long seconds = microsOfDay / DateKernels.MICROS_PER_SECOND;
        twoDigits(seconds / 3600, out);
        out.append(':');
        twoDigits(seconds / 60 % 60, out);
        out.append(':');
        twoDigits(seconds % 60, out);
        long fraction = microsOfDay % DateKernels.MICROS_PER_SECOND;
        if (fraction != 0) {
            out.append('.');
            int digits = 6;
            while (fraction % 10 == 0) {
                fraction /= 10;
                digits--;
            }
            String text = Long.toString(fraction);
            for (int i = text.length(); i < digits; i++) {
                out.append('0');
            }
            out.append(text);
        }
    }

    private static void twoDigits(long value, StringBuilder out) {
        out.append((char) ('0' + value / 10)).append((char) ('0' + value % 10));
    }

    /** The timestamp {@code text} stands for, or {@link #INVALID}. */
    public static long parse(CharSequence text) {
        int start = 0;
        int end = text.length();
        while (start < end && Character.isWhitespace(text.charAt(start))) {
            start++;
        }
        while (end > start && Character.isWhitespace(text.charAt(end - 1))) {
            end--;
        }
        int separator = start + 1;
        while (separator < end && text.charAt(separator) != ' ' && text.charAt(separator) != 'T') {
            separator++;
        }
        long days = DateKernels.parse(text.subSequence(start, separator));
        if (days == Long.MIN_VALUE) {
            return INVALID;
        }
        if (separator == end) {
            return days * DateKernels.MICROS_PER_DAY;
        }
        long time = parseTime(text, separator + 1, end);
        return time == INVALID ? INVALID : days * DateKernels.MICROS_PER_DAY + time;
    }

    /** {@code HH:MM[:SS[.fffffffff]]} with an optional zone after it, as microseconds since midnight. */
    private static long parseTime(CharSequence text, int start, int end) {
        int[] position = {start};
        long hour = number(text, position, end, 2);
        if (hour < 0 || hour > 23 || !expect(text, position, end, ':')) {
            return INVALID;
        }
        long minute = number(text, position, end, 2);
        if (minute < 0 || minute > 59) {
            return INVALID;
        }
        long second = 0;
        long fraction = 0;
        if (position[0] < end && text.charAt(position[0]) == ':') {
            position[0]++;
            second = number(text, position, end, 2);
            if (second < 0 || second > 59) {
                return INVALID;
            }
            if (position[0] < end && text.charAt(position[0]) == '.') {
                position[0]++;
                fraction = fraction(text, position, end);
                if (fraction < 0) {
                    return INVALID;
                }
            }
        }
        if (!zone(text, position[0], end)) {
            return INVALID;
        }
        return hour * DateKernels.MICROS_PER_HOUR + minute * DateKernels.MICROS_PER_MINUTE + second * DateKernels.MICROS_PER_SECOND + fraction;
    }

    /** One to nine digits after the point, as microseconds (digits past the sixth are dropped). */
    private static long fraction(CharSequence text, int[] position, int end) {
        long micros = 0;
        int digits = 0;
        while (position[0] < end && isDigit(text.charAt(position[0])) && digits < 9) {
            if (digits < 6) {
                micros = micros * 10 + (text.charAt(position[0]) - '0');
            }
            digits++;
            position[0]++;
        }
        if (digits == 0) {
            return -1;
        }
        for (int i = digits; i < 6; i++) {
            micros *= 10;
        }
        return micros;
    }

    /** Nothing, or a zone: spaces, then {@code Z}, {@code UTC} or {@code ±HH[[:]MM]}. */
    private static boolean zone(CharSequence text, int start, int end) {
        int i = start;
        while (i < end && text.charAt(i) == ' ') {
            i++;
        }
        if (i == end) {
            return true;
        }
        String rest = text.subSequence(i, end).toString();
        if (rest.equals("Z") || rest.equalsIgnoreCase("UTC")) {
            return true;
        }
        return rest.matches("[+-]\\d{1,2}(:?\\d{2})?");
    }

    /** Up to {@code max} digits (at least one) at {@code position}, advancing it; -1 if there is no digit. */
    static long number(CharSequence text, int[] position, int end, int max) {
        long value = 0;
        int digits = 0;
        while (position[0] < end && digits < max && isDigit(text.charAt(position[0]))) {
            value = value * 10 + (text.charAt(position[0]) - '0');
            position[0]++;
            digits++;
        }
        return digits == 0 ? -1 : value;
    }

    private static boolean expect(CharSequence text, int[] position, int end, char c) {
        if (position[0] < end && text.charAt(position[0]) == c) {
            position[0]++;
            return true;
        }
        return false;
    }

    static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }
}
