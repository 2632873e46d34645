package dev.quiver.engine.expr.kernel;

/**
 * Calendar arithmetic on DATE values (days since 1970-01-01, proleptic Gregorian, year 0 exists
 * as in DuckDB) with Howard Hinnant's integer civil-from-days algorithms, so no {@code LocalDate}
 * per row. TIMESTAMP values are microseconds since 1970-01-01 00:00:00; {@link #days} and
 * {@link #microsOfDay} split them, rounding down for instants before 1970.
 */
public final class DateKernels {
    public static final long MICROS_PER_SECOND = 1_000_000L;
    public static final long MICROS_PER_MINUTE = 60 * MICROS_PER_SECOND;
    public static final long MICROS_PER_HOUR = 60 * MICROS_PER_MINUTE;
    public static final long MICROS_PER_DAY = 24 * MICROS_PER_HOUR;

    private DateKernels() {}

    /** The day of a timestamp. */
    public static int days(long micros) {
        return (int) Math.floorDiv(micros, MICROS_PER_DAY);
    }

    /** The microseconds since midnight of a timestamp (0 to one day less 1 µs). */
    public static long microsOfDay(long micros) {
        return Math.floorMod(micros, MICROS_PER_DAY);
    }

    /** The day of the week, Sunday = 0 to Saturday = 6 (as DuckDB's and PostgreSQL's {@code dow}). */
    public static int dayOfWeek(int days) {
        // 1970-01-01 was a Thursday
        return (int) Math.floorMod(days + 4L, 7L);
    }

    /** The ISO day of the week, Monday = 1 to Sunday = 7. */
    public static int isoDayOfWeek(int days) {
        int dow = dayOfWeek(days);
        return dow == 0 ? 7 : dow;
    }

    /** The day of the year, 1 to 366. */
    public static int dayOfYear(int days) {
        return days - daysFromCivil(year(days), 1, 1) + 1;
    }

    /** The Monday on or before {@code days}. */
    public static int mondayOfWeek(int days) {
        return days - (isoDayOfWeek(days) - 1);
    }

    /** The ISO 8601 week-numbering year: the year of the week's Thursday. */
    public static int isoYear(int days) {
        return year(mondayOfWeek(days) + 3);
    }

    /** The ISO 8601 week number, 1 to 53: weeks start on Monday, week 1 holds the year's first Thursday. */
    public static int isoWeek(int days) {
        int thursday = mondayOfWeek(days) + 3;
        return (thursday - daysFromCivil(year(thursday), 1, 1)) / 7 + 1;
    }

    /** The Monday that starts week 1 of ISO year {@code isoYear}. */
    public static int isoYearStart(int isoYear) {
        return mondayOfWeek(daysFromCivil(isoYear, 1, 4));
    }

    /** The last day of the month of {@code days}. */
    public static int lastDayOfMonth(int days) {
        int year = year(days);
        int month = month(days);
        return daysFromCivil(year, month, daysInMonth(year, month));
    }

    /** Days since the epoch of a civil date. */
    public static int daysFromCivil(long year, int month, int day) {
        long y = month <= 2 ? year - 1 : year;
        long era = Math.floorDiv(y, 400);
        long yearOfEra = y - era * 400;
        int shiftedMonth = month > 2 ? month - 3 : month + 9;
        long dayOfYear = (153L * shiftedMonth + 2) / 5 + day - 1;
        long dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
        return (int) (era * 146097 + dayOfEra - 719468);
    }

    /** The year of a day number. */
    public static int year(int days) {
        long z = days + 719468L;
        long era = Math.floorDiv(z, 146097);
        long dayOfEra = z - era * 146097;
        long yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146096) / 365;
        long dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
        long mp = (5 * dayOfYear + 2) / 153;
        long month = mp < 10 ? mp + 3 : mp - 9;
        return (int) (yearOfEra + era * 400 + (month <= 2 ? 1 : 0));
    }

    /** The month (1–12) of a day number. */
    public static int month(int days) {
        long z = days + 719468L;
        long dayOfEra = z - Math.floorDiv(z, 146097) * 146097;
        long yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146096) / 365;
        long dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
        long mp = (5 * dayOfYear + 2) / 153;
        return (int) (mp < 10 ? mp + 3 : mp - 9);
    }

    /** The day of month (1–31) of a day number. */
    public static int dayOfMonth(int days) {
        long z = days + 719468L;
        long dayOfEra = z - Math.floorDiv(z, 146097) * 146097;
        long yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146096) / 365;
        long dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
        long mp = (5 * dayOfYear + 2) / 153;
        return (int) (dayOfYear - (153 * mp + 2) / 5 + 1);
    }

    public static boolean isLeapYear(long year) {
        return (year & 3) == 0 && (year % 100 != 0 || year % 400 == 0);
    }

    public static int daysInMonth(long year, int month) {
        return switch (month) {
            case 2 -> isLeapYear(year) ? 29 : 28;
            case 4, 6, 9, 11 -> 30;
            default -> 31;
        };
    }

    /** {@code days} plus {@code months}, clamped to the last day of the resulting month. */
    public static int addMonths(int days, long months) {
        long total = (long) year(days) * 12 + (month(days) - 1) + months;
        long year = Math.floorDiv(total, 12);
        int month = (int) Math.floorMod(total, 12) + 1;
        int day = Math.min(dayOfMonth(days), daysInMonth(year, month));
        return daysFromCivil(year, month, day);
    }

    /** Appends {@code YYYY-MM-DD} to {@code out}. */
    public static void format(int days, StringBuilder out) {
        int year = year(days);
        int month = month(days);
        int day = dayOfMonth(days);
        if (year < 0) {
            out.append('-');
            year = -year;
        }
        String yearText = Integer.toString(year);
        out.append("0000", 0, Math.max(0, 4 - yearText.length())).append(yearText).append('-');
        out.append((char) ('0' + month / 10)).append((char) ('0' + month % 10)).append('-');
        out.append((char) ('0' + day / 10)).append((char) ('0' + day % 10));
    }

    /** Parses {@code YYYY-MM-DD} (surrounding spaces allowed); returns {@code Long.MIN_VALUE} if invalid. */
    public static long parse(CharSequence text) {
        int start = 0;
        int end = text.length();
        while (start < end && text.charAt(start) == ' ') {
            start++;
        }
        while (end > start && text.charAt(end - 1) == ' ') {
            end--;
        }
        int firstDash = -1;
        for (int i = start + 1; i < end; i++) {
            if (text.charAt(i) == '-') {
                firstDash = i;
                break;
            }
        }
        if (firstDash < 0 || end - firstDash < 4) {
            return Long.MIN_VALUE;
        }
        int secondDash = -1;
        for (int i = firstDash + 1; i < end; i++) {
            if (text.charAt(i) == '-') {
                secondDash = i;
                break;
            }
        }
        long year = digits(text, start, firstDash);
        long month = secondDash < 0 ? -1 : digits(text, firstDash + 1, secondDash);
        long day = secondDash < 0 ? -1 : digits(text, secondDash + 1, end);
        if (year < 0 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, (int) month)) {
            return Long.MIN_VALUE;
        }
        return daysFromCivil(year, (int) month, (int) day);
    }

    private static long digits(CharSequence text, int start, int end) {
        if (start >= end || end - start > 9) {
            return -1;
        }
        long value = 0;
        for (int i = start; i < end; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }
}
