package dev.quiver.engine.expr.kernel;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * A field of a date or timestamp, as {@code date_part}, {@code EXTRACT}, {@code date_trunc} and
 * {@code date_diff} name it. The names and their meanings are DuckDB's (which agree with
 * PostgreSQL's where both have a field, except that {@code second} and {@code millisecond} are
 * whole numbers): {@code dow} counts from Sunday = 0, {@code week} is the ISO week, a DATE has
 * zero time fields.
 */
public enum DatePart {
    YEAR("year", "yr", "y", "years", "yrs"),
    QUARTER("quarter", "quarters"),
    MONTH("month", "mon", "months", "mons"),
    WEEK("week", "weeks", "w", "weekofyear"),
    DAY("day", "days", "d", "dayofmonth"),
    DOW("dow", "dayofweek", "weekday"),
    ISODOW("isodow"),
    DOY("doy", "dayofyear"),
    ISOYEAR("isoyear"),
    YEARWEEK("yearweek"),
    DECADE("decade", "dec", "decades", "decs"),
    CENTURY("century", "cent", "centuries", "c"),
    MILLENNIUM("millennium", "mil", "millenniums", "millennia", "mils", "millenium"),
    ERA("era"),
    EPOCH("epoch"),
    JULIAN("julian", "jd"),
    HOUR("hour", "hr", "hours", "hrs", "h"),
    MINUTE("minute", "min", "minutes", "mins", "m"),
    SECOND("second", "sec", "seconds", "secs", "s"),
    MILLISECOND("millisecond", "milliseconds", "ms", "msec", "msecs", "msecond", "mseconds"),
    MICROSECOND("microsecond", "microseconds", "us", "usec", "usecs", "usecond", "useconds");

    /** Julian day number of 1970-01-01 at noon, less half a day: day 0 of the epoch starts Julian day 2440588. */
    private static final long JULIAN_DAY_OF_EPOCH = 2_440_588L;

    private final List<String> names;

    DatePart(String... names) {
        this.names = List.of(names);
    }

    /** The part a name (any case) stands for; INVALID_ARGUMENT naming the accepted parts otherwise. */
    public static DatePart parse(String text, String function) {
        String name = text.trim().toLowerCase(Locale.ROOT);
        for (DatePart part : values()) {
            if (part.names.contains(name)) {
                return part;
            }
        }
        throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "Unknown date part '" + text + "' in " + function + "; use one of "
                + Arrays.stream(values()).map(DatePart::canonicalName).collect(Collectors.joining(", ")));
    }

    public String canonicalName() {
        return names.get(0);
    }

    /** Whether the part is a fraction ({@code epoch}, {@code julian}: DOUBLE); the others are BIGINT. */
    public boolean isFractional() {
        return this == EPOCH || this == JULIAN;
    }

    /** Whether the part is a time of day, zero for a DATE. */
    public boolean isTimeOfDay() {
        return ordinal() >= HOUR.ordinal();
    }

    /** The value of a whole-number part of the day {@code days} at {@code microsOfDay} past midnight. */
    public long value(int days, long microsOfDay) {
        return switch (this) {
            case YEAR -> DateKernels.year(days);
            case QUARTER -> (DateKernels.month(days) - 1) / 3 + 1;
            case MONTH -> DateKernels.month(days);
            case WEEK -> DateKernels.isoWeek(days);
            case DAY -> DateKernels.dayOfMonth(days);
            case DOW -> DateKernels.dayOfWeek(days);
            case ISODOW -> DateKernels.isoDayOfWeek(days);
            case DOY -> DateKernels.dayOfYear(days);
            case ISOYEAR -> DateKernels.isoYear(days);
            case YEARWEEK -> yearWeek(days);
            // truncating division, as DuckDB: the decade of year -5 is 0
            case DECADE -> DateKernels.year(days) / 10;
            case CENTURY -> century(DateKernels.year(days), 100);
            case MILLENNIUM -> century(DateKernels.year(days), 1000);
            case ERA -> DateKernels.year(days) > 0 ? 1 : 0;
            case HOUR -> microsOfDay / DateKernels.MICROS_PER_HOUR;
            case MINUTE -> microsOfDay / DateKernels.MICROS_PER_MINUTE % 60;
            case SECOND -> microsOfDay / DateKernels.MICROS_PER_SECOND % 60;
            case MILLISECOND -> microsOfDay % DateKernels.MICROS_PER_MINUTE / 1000;
            case MICROSECOND -> microsOfDay % DateKernels.MICROS_PER_MINUTE;
            case EPOCH, JULIAN -> throw new IllegalStateException(this + " is fractional");
        };
    }

    /** The value of a fractional part of the timestamp {@code micros}. */
    public double fraction(long micros) {
        return switch (this) {
            case EPOCH -> micros / (double) DateKernels.MICROS_PER_SECOND;
            case JULIAN -> DateKernels.days(micros) + JULIAN_DAY_OF_EPOCH
                    + DateKernels.microsOfDay(micros) / (double) DateKernels.MICROS_PER_DAY;
            default -> throw new IllegalStateException(this + " is a whole number");
        };
    }

    /** ISO year times 100 plus ISO week (the week negated in years before 1). */
    private static long yearWeek(int days) {
        long year = DateKernels.isoYear(days);
        long week = DateKernels.isoWeek(days);
        return year * 100 + (year > 0 ? week : -week);
    }

    /** Centuries (or millennia) as PostgreSQL counts them: 2000 is in the 20th, 2001 in the 21st; there is no century 0. */
    private static long century(long year, int length) {
        return year > 0 ? (year - 1) / length + 1 : year / length - 1;
    }
}
