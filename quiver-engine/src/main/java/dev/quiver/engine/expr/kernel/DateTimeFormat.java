package dev.quiver.engine.expr.kernel;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A {@code strftime}/{@code strptime} format (DuckDB's and C's format codes), compiled once per
 * call site. Formatting writes into a reused {@link StringBuilder}; parsing reads fields without
 * allocating per row.
 *
 * <p>Codes: {@code %Y %G %y} years, {@code %m %b %B} months, {@code %d %j} days,
 * {@code %a %A %w %u} weekdays, {@code %U %W %V} week numbers, {@code %H %I %p} hours,
 * {@code %M %S %g %f} minutes to microseconds, {@code %z %Z} (a TIMESTAMP is UTC: {@code +00} and
 * nothing), {@code %c %x %X} ISO date and time, {@code %%}; {@code %-d} (and the like) drops
 * the leading zero. A space in the format matches any run of spaces when parsing.
 */
public final class DateTimeFormat {
    private static final String[] DAY_NAMES = {"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"};
    private static final String[] MONTH_NAMES = {"January", "February", "March", "April", "May", "June", "July", "August", "September",
        "October", "November", "December"};

    /** One piece of a format: literal text, or a code. */
    private record Item(char code, boolean padded, String literal) {}

    private final String pattern;
    private final List<Item> items;

    private DateTimeFormat(String pattern, List<Item> items) {
        this.pattern = requireNonNull(pattern, "pattern is null");
        this.items = List.copyOf(items);
    }

    /** Compiles {@code pattern}; an unknown code is INVALID_ARGUMENT naming {@code function}. */
    public static DateTimeFormat compile(String pattern, String function) {
        List<Item> items = new ArrayList<>();
        StringBuilder literal = new StringBuilder();
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c != '%') {
                literal.append(c);
                continue;
            }
            boolean padded = true;
            if (i + 1 < pattern.length() && pattern.charAt(i + 1) == '-') {
                padded = false;
                i++;
            }
            if (i + 1 >= pattern.length() || "aAwudbBhmyYGHIpMSfgzZjUWVcxX%".indexOf(pattern.charAt(i + 1)) < 0) {
                throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "Unknown format code '"
                        + pattern.substring(i, Math.min(pattern.length(), i + 2)) + "' in " + function + " format '" + pattern + "'");
            }
            char code = pattern.charAt(++i);
            if (code == '%') {
                literal.append('%');
                continue;
            }
            if (literal.length() > 0) {
                items.add(new Item('\0', true, literal.toString()));
                literal.setLength(0);
            }
            switch (code) {
                case 'c' -> items.addAll(compile("%Y-%m-%d %H:%M:%S", function).items);
                case 'x' -> items.addAll(compile("%Y-%m-%d", function).items);
                case 'X' -> items.addAll(compile("%H:%M:%S", function).items);
                default -> items.add(new Item(code, padded, null));
            }
        }
        if (literal.length() > 0) {
            items.add(new Item('\0', true, literal.toString()));
        }
        return new DateTimeFormat(pattern, items);
    }

    public String pattern() {
        return pattern;
    }

    /** Appends the timestamp {@code micros} (a DATE at midnight) in this format. */
    public void format(long micros, StringBuilder out) {
        int days = DateKernels.days(micros);
        long time = DateKernels.microsOfDay(micros);
        for (Item item : items) {
            if (item.literal != null) {
                out.append(item.literal);
                continue;
            }
            switch (item.code) {
                case 'a' -> out.append(DAY_NAMES[DateKernels.dayOfWeek(days)], 0, 3);
                case 'A' -> out.append(DAY_NAMES[DateKernels.dayOfWeek(days)]);
                case 'w' -> out.append(DateKernels.dayOfWeek(days));
                case 'u' -> out.append(DateKernels.isoDayOfWeek(days));
                case 'd' -> number(DateKernels.dayOfMonth(days), item.padded ? 2 : 1, out);
                case 'b', 'h' -> out.append(MONTH_NAMES[DateKernels.month(days) - 1], 0, 3);
                case 'B' -> out.append(MONTH_NAMES[DateKernels.month(days) - 1]);
                case 'm' -> number(DateKernels.month(days), item.padded ? 2 : 1, out);
                case 'y' -> number(Math.floorMod(DateKernels.year(days), 100), item.padded ? 2 : 1, out);
                case 'Y' -> year(DateKernels.year(days), out);
                case 'G' -> year(DateKernels.isoYear(days), out);
                case 'H' -> number(time / DateKernels.MICROS_PER_HOUR, item.padded ? 2 : 1, out);
                case 'I' -> number(twelveHour(time / DateKernels.MICROS_PER_HOUR), item.padded ? 2 : 1, out);
                case 'p' -> out.append(time / DateKernels.MICROS_PER_HOUR < 12 ? "AM" : "PM");
                case 'M' -> number(time / DateKernels.MICROS_PER_MINUTE % 60, item.padded ? 2 : 1, out);
                case 'S' -> number(time / DateKernels.MICROS_PER_SECOND % 60, item.padded ? 2 : 1, out);
                case 'g' -> number(time % DateKernels.MICROS_PER_SECOND / 1000, 3, out);
                case 'f' -> number(time % DateKernels.MICROS_PER_SECOND, 6, out);
                case 'z' -> out.append("+00");
                case 'Z' -> { }
                case 'j' -> number(DateKernels.dayOfYear(days), item.padded ? 3 : 1, out);
                case 'U' -> number(weekOfYear(days, DateKernels.dayOfWeek(days)), 2, out);
                case 'W' -> number(weekOfYear(days, DateKernels.isoDayOfWeek(days) - 1), 2, out);
                case 'V' -> number(DateKernels.isoWeek(days), 2, out);
                default -> throw new IllegalStateException("unknown code " + item.code);
            }
        }
    }

    /** The week of the year with weeks starting on the day {@code daysIntoWeek} counts from (00 before the first). */
    private static long weekOfYear(int days, int daysIntoWeek) {
        return (DateKernels.dayOfYear(days) - 1 - daysIntoWeek + 7) / 7;
    }

    private static long twelveHour(long hour) {
        long h = hour % 12;
        return h == 0 ? 12 : h;
    }

    private static void year(long year, StringBuilder out) {
        if (year < 0) {
            out.append(year);
        } else {
            number(year, 4, out);
        }
    }

    private static void number(long value, int width, StringBuilder out) {
        String text = Long.toString(value);
        for (int i = text.length(); i < width; i++) {
            out.append('0');
        }
        out.append(text);
    }

    /**
     * The timestamp {@code text} holds in this format, or {@link TimestampText#INVALID} when it does
     * not match; a date that does not exist (February 30) is INVALID_ARGUMENT.
     */
    public long parse(CharSequence text, String display) {
        Fields fields = new Fields();
        int[] position = {0};
        int end = text.length();
        for (Item item : items) {
            if (!(item.literal != null ? literal(text, position, end, item.literal) : field(item, text, position, end, fields))) {
                return TimestampText.INVALID;
            }
        }
        return position[0] == end ? fields.micros(display) : TimestampText.INVALID;
    }

    private static boolean literal(CharSequence text, int[] position, int end, String literal) {
        for (int i = 0; i < literal.length(); i++) {
            char c = literal.charAt(i);
            if (c == ' ') {
                if (position[0] >= end || !Character.isWhitespace(text.charAt(position[0]))) {
                    return false;
                }
                while (position[0] < end && Character.isWhitespace(text.charAt(position[0]))) {
                    position[0]++;
                }
            } else if (position[0] < end && text.charAt(position[0]) == c) {
                position[0]++;
            } else {
                return false;
            }
        }
        return true;
    }

    private static boolean field(Item item, CharSequence text, int[] position, int end, Fields fields) {
        while (position[0] < end && Character.isWhitespace(text.charAt(position[0])) && "aAbBhp".indexOf(item.code) < 0) {
            position[0]++;
        }
        switch (item.code) {
            case 'a', 'A' -> {
                return name(text, position, end, DAY_NAMES, item.code == 'a') >= 0;
            }
            case 'b', 'h', 'B' -> {
                fields.month = name(text, position, end, MONTH_NAMES, item.code != 'B') + 1;
                return fields.month > 0;
            }
            case 'p' -> {
                fields.pm = name(text, position, end, new String[] {"AM", "PM"}, false);
                return fields.pm >= 0;
            }
            case 'f', 'g' -> {
                int start = position[0];
                long digits = TimestampText.number(text, position, end, item.code == 'f' ? 6 : 3);
                if (digits < 0) {
                    return false;
                }
                for (int i = position[0] - start; i < 6; i++) {
                    digits *= 10;
                }
                fields.micros = digits;
                return true;
            }
            case 'z', 'Z', 'U', 'W', 'V', 'G', 'w', 'u' -> throw new QuiverException(ErrorCode.NOT_SUPPORTED,
                    "strptime does not read %" + item.code);
            default -> {
                return number(item.code, TimestampText.number(text, position, end, width(item.code)), fields);
            }
        }
    }

    private static int width(char code) {
        return switch (code) {
            case 'Y' -> 4;
            case 'j' -> 3;
            default -> 2;
        };
    }

    private static boolean number(char code, long value, Fields fields) {
        if (value < 0) {
            return false;
        }
        switch (code) {
            case 'Y' -> fields.year = value;
            case 'y' -> fields.year = value < 69 ? 2000 + value : 1900 + value;
            case 'm' -> fields.month = value;
            case 'd' -> fields.day = value;
            case 'j' -> fields.dayOfYear = value;
            case 'H' -> fields.hour = value;
            case 'I' -> {
                if (value < 1 || value > 12) {
                    return false;
                }
                fields.hour = value;
                fields.twelveHour = true;
            }
            case 'M' -> fields.minute = value;
            case 'S' -> fields.second = value;
            default -> throw new IllegalStateException("unknown code " + code);
        }
        return true;
    }

    /** The index of the name (or its three-letter abbreviation) at {@code position}, case-insensitive; -1 if none. */
    private static int name(CharSequence text, int[] position, int end, String[] names, boolean abbreviated) {
        for (int n = 0; n < names.length; n++) {
            String name = abbreviated ? names[n].substring(0, Math.min(3, names[n].length())) : names[n];
            if (end - position[0] >= name.length() && text.subSequence(position[0], position[0] + name.length()).toString()
                    .toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT))) {
                position[0] += name.length();
                return n;
            }
        }
        return -1;
    }

    /** The fields read so far; unset ones default to 1900-01-01 00:00:00, as C's strptime. */
    private static final class Fields {
        long year = 1900;
        long month = 1;
        long day = 1;
        long dayOfYear = -1;
        long hour;
        long minute;
        long second;
        long micros;
        int pm = -1;
        boolean twelveHour;

        long micros(String display) {
            if (twelveHour || pm >= 0) {
                hour = hour % 12 + (pm == 1 ? 12 : 0);
            }
            if (month < 1 || month > 12 || day < 1 || day > DateKernels.daysInMonth(year, (int) month) || hour > 23 || minute > 59
                    || second > 59 || dayOfYear == 0 || dayOfYear > (DateKernels.isLeapYear(year) ? 366 : 365)) {
                throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "Date or time out of range in " + display + ": " + year + "-" + month
                        + "-" + day + " " + hour + ":" + minute + ":" + second);
            }
            long days = dayOfYear > 0 ? DateKernels.daysFromCivil(year, 1, 1) + dayOfYear - 1 : DateKernels.daysFromCivil(year, (int) month, (int) day);
            return days * DateKernels.MICROS_PER_DAY + hour * DateKernels.MICROS_PER_HOUR + minute * DateKernels.MICROS_PER_MINUTE
                    + second * DateKernels.MICROS_PER_SECOND + micros;
        }
    }
}
