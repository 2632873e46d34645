package dev.quiver.engine.expr.kernel;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.types.QuiverTypes;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/** {@code date_part}/{@code EXTRACT}, {@code date_trunc} and {@code date_diff} over DATE or TIMESTAMP vectors. */
public final class DatePartKernels {
    private static final long MICROS_PER_WEEK = 7 * DateKernels.MICROS_PER_DAY;

    private DatePartKernels() {}

    /** The part of each value: BIGINT (or {@code type}, an integer type), DOUBLE for a fractional part. */
    public static FieldVector extract(DatePart part, Operand input, ArrowType type, int rows, BufferAllocator allocator) {
        long[] micros = TemporalResults.micros(input);
        if (part.isFractional()) {
            double[] result = new double[rows];
            for (int i = 0; i < rows; i++) {
                result[i] = part.fraction(micros[i]);
            }
            return TemporalResults.doubles(result, rows, allocator, input);
        }
        long[] result = new long[rows];
        for (int i = 0; i < rows; i++) {
            long value = micros[i];
            result[i] = part.value(DateKernels.days(value), DateKernels.microsOfDay(value));
        }
        return TemporalResults.longs(result, type, "date_part('" + part.canonicalName() + "', ...)", rows, allocator, input);
    }

    /** Checks that {@code date_trunc} can truncate to {@code part}; INVALID_ARGUMENT otherwise. */
    public static DatePart checkTruncatable(DatePart part) {
        if (part == DatePart.ERA) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT,
                    "date_trunc cannot truncate to 'era'");
        }
        return part;
    }

    /** Each value truncated to the start of its {@code part} (a TIMESTAMP, as DuckDB and PostgreSQL). */
    public static FieldVector truncate(DatePart part, Operand input, ArrowType type, int rows, BufferAllocator allocator) {
        long[] micros = TemporalResults.micros(input);
        long[] result = new long[rows];
        for (int i = 0; i < rows; i++) {
            result[i] = truncate(part, micros[i]);
        }
        return TemporalResults.longs(result, type, "date_trunc('" + part.canonicalName() + "', ...)", rows, allocator, input);
    }

    /** {@code micros} truncated to the start of its {@code part}. */
    public static long truncate(DatePart part, long micros) {
        switch (part) {
            case MICROSECOND:
                return micros;
            case MILLISECOND:
                return Math.floorDiv(micros, 1000L) * 1000L;
            case SECOND:
            case EPOCH:
                return Math.floorDiv(micros, DateKernels.MICROS_PER_SECOND) * DateKernels.MICROS_PER_SECOND;
            case MINUTE:
                return Math.floorDiv(micros, DateKernels.MICROS_PER_MINUTE) * DateKernels.MICROS_PER_MINUTE;
            case HOUR:
                return Math.floorDiv(micros, DateKernels.MICROS_PER_HOUR) * DateKernels.MICROS_PER_HOUR;
            default:
                return truncateDays(part, DateKernels.days(micros)) * DateKernels.MICROS_PER_DAY;
        }
    }

    private static long truncateDays(DatePart part, int days) {
        int year = DateKernels.year(days);
        return switch (part) {
            case DAY, DOW, ISODOW, DOY, JULIAN -> days;
            case WEEK, YEARWEEK -> DateKernels.mondayOfWeek(days);
            case ISOYEAR -> DateKernels.isoYearStart(DateKernels.isoYear(days));
            case MONTH -> DateKernels.daysFromCivil(year, DateKernels.month(days), 1);
            case QUARTER -> DateKernels.daysFromCivil(year, (DateKernels.month(days) - 1) / 3 * 3 + 1, 1);
            case YEAR -> DateKernels.daysFromCivil(year, 1, 1);
            // truncating division of the year, as DuckDB
            case DECADE -> DateKernels.daysFromCivil(year / 10 * 10, 1, 1);
            case CENTURY -> DateKernels.daysFromCivil(year / 100 * 100, 1, 1);
            case MILLENNIUM -> DateKernels.daysFromCivil(year / 1000 * 1000, 1, 1);
            default -> throw new IllegalArgumentException("not a calendar part: " + part);
        };
    }

    /**
     * {@code date_diff(part, start, end)}: how many {@code part} boundaries lie between the two
     * values (DuckDB's and SQL Server's DATEDIFF): {@code date_diff('month', '2024-01-31', '2024-02-01')} is 1.
     * Weeks are whole 7-day spans, as in DuckDB.
     */
    public static FieldVector diff(DatePart part, Operand start, Operand end, ArrowType type, String display, int rows,
            BufferAllocator allocator) {
        long[] from = TemporalResults.micros(start);
        long[] to = TemporalResults.micros(end);
        long[] result = new long[rows];
        for (int i = 0; i < rows; i++) {
            result[i] = boundaries(part, from[i], to[i], display);
        }
        return TemporalResults.longs(result, type, display, rows, allocator, start, end);
    }

    /** The number of {@code part} boundaries from {@code start} to {@code end} (negative when end is earlier). */
    public static long boundaries(DatePart part, long start, long end, String display) {
        int startDays = DateKernels.days(start);
        int endDays = DateKernels.days(end);
        return switch (part) {
            case YEAR -> DateKernels.year(endDays) - DateKernels.year(startDays);
            case QUARTER -> monthNumber(endDays) / 3 - monthNumber(startDays) / 3;
            case MONTH -> monthNumber(endDays) - monthNumber(startDays);
            case WEEK, YEARWEEK -> (endDays - (long) startDays) / 7;
            case DAY, DOW, ISODOW, DOY, JULIAN -> endDays - (long) startDays;
            case DECADE -> DateKernels.year(endDays) / 10 - DateKernels.year(startDays) / 10;
            case CENTURY -> DateKernels.year(endDays) / 100 - DateKernels.year(startDays) / 100;
            case MILLENNIUM -> DateKernels.year(endDays) / 1000 - DateKernels.year(startDays) / 1000;
            case ISOYEAR -> DateKernels.isoYear(endDays) - DateKernels.isoYear(startDays);
            case HOUR -> Math.floorDiv(end, DateKernels.MICROS_PER_HOUR) - Math.floorDiv(start, DateKernels.MICROS_PER_HOUR);
            case MINUTE -> Math.floorDiv(end, DateKernels.MICROS_PER_MINUTE) - Math.floorDiv(start, DateKernels.MICROS_PER_MINUTE);
            case SECOND, EPOCH -> Math.floorDiv(end, DateKernels.MICROS_PER_SECOND) - Math.floorDiv(start, DateKernels.MICROS_PER_SECOND);
            case MILLISECOND -> Math.floorDiv(end, 1000L) - Math.floorDiv(start, 1000L);
            case MICROSECOND -> subtract(end, start, display);
            case ERA -> throw new IllegalArgumentException("no boundaries of " + part);
        };
    }

    /**
     * {@code date_sub(part, start, end)} and {@code TIMESTAMPDIFF}: how many whole {@code part}s
     * have passed from start to end, as DuckDB's {@code date_sub}; a month is complete on the same
     * day and time of the next month, or on its last day when that month is shorter.
     */
    public static FieldVector elapsed(DatePart part, Operand start, Operand end, ArrowType type, String display, int rows,
            BufferAllocator allocator) {
        long[] from = TemporalResults.micros(start);
        long[] to = TemporalResults.micros(end);
        long[] result = new long[rows];
        for (int i = 0; i < rows; i++) {
            result[i] = elapsed(part, from[i], to[i], display);
        }
        return TemporalResults.longs(result, type, display, rows, allocator, start, end);
    }

    /** Checks that whole {@code part}s can be counted (date_sub, TIMESTAMPDIFF); INVALID_ARGUMENT otherwise. */
    public static DatePart checkCountable(DatePart part, String function) {
        if (part == DatePart.ERA) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, function + " cannot count 'era'");
        }
        return part;
    }

    static long elapsed(DatePart part, long start, long end, String display) {
        return switch (part) {
            // as DuckDB: ISO years count as years, year-weeks as weeks
            case YEAR, ISOYEAR -> completeMonths(start, end) / 12;
            case QUARTER -> completeMonths(start, end) / 3;
            case MONTH -> completeMonths(start, end);
            case DECADE -> completeMonths(start, end) / 120;
            case CENTURY -> completeMonths(start, end) / 1200;
            case MILLENNIUM -> completeMonths(start, end) / 12000;
            case WEEK, YEARWEEK -> subtract(end, start, display) / MICROS_PER_WEEK;
            case DAY, DOW, ISODOW, DOY, JULIAN -> subtract(end, start, display) / DateKernels.MICROS_PER_DAY;
            case HOUR -> subtract(end, start, display) / DateKernels.MICROS_PER_HOUR;
            case MINUTE -> subtract(end, start, display) / DateKernels.MICROS_PER_MINUTE;
            case SECOND, EPOCH -> subtract(end, start, display) / DateKernels.MICROS_PER_SECOND;
            case MILLISECOND -> subtract(end, start, display) / 1000L;
            case MICROSECOND -> subtract(end, start, display);
            default -> throw new IllegalArgumentException("cannot count " + part);
        };
    }

    private static long completeMonths(long start, long end) {
        if (start > end) {
            return -completeMonths(end, start);
        }
        int endDays = DateKernels.days(end);
        long endTime = DateKernels.microsOfDay(end);
        int endDay = DateKernels.dayOfMonth(endDays);
        int startDays = DateKernels.days(start);
        long startTime = DateKernels.microsOfDay(start);
        int startDay = DateKernels.dayOfMonth(startDays);
        int endMonthLength = DateKernels.daysInMonth(DateKernels.year(endDays), DateKernels.month(endDays));
        if (endDay == endMonthLength && (startDay > endMonthLength || startDay == endMonthLength && startTime < endTime)) {
            // ending on the last day of a shorter month completes the month
            startDay = endMonthLength;
        }
        long months = monthNumber(endDays) - monthNumber(startDays);
        if (endDay < startDay || endDay == startDay && endTime < startTime) {
            months--;
        }
        return months;
    }

    /** Months since year 0, month 1. */
    private static long monthNumber(int days) {
        return DateKernels.year(days) * 12L + DateKernels.month(days) - 1;
    }

    private static long subtract(long end, long start, String display) {
        try {
            return Math.subtractExact(end, start);
        } catch (ArithmeticException e) {
            throw TemporalResults.outOfRange(QuiverTypes.INT64, display);
        }
    }
}
