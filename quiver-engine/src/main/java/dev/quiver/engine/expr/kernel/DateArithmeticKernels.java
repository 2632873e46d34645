package dev.quiver.engine.expr.kernel;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.types.QuiverTypes;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * Adding days, months and microseconds to DATE and TIMESTAMP vectors, and making dates and
 * timestamps from their fields. Months keep the day of the month, clamped to the last day of a
 * shorter month ({@code 2024-01-31 + 1 month} is 2024-02-29), as DuckDB and PostgreSQL.
 */
public final class DateArithmeticKernels {
    /** Beyond this many months any date leaves the DATE range; checked before the arithmetic can overflow. */
    private static final long MAX_MONTHS = 12L * 12_000_000L;

    private DateArithmeticKernels() {}

    /** {@code date + days} (days INTEGER or BIGINT), a DATE. */
    public static FieldVector addDays(Operand date, Operand days, String display, int rows, BufferAllocator allocator) {
        long[] values = Numeric.decodeLongs(date);
        long[] amounts = Numeric.decodeLongs(days);
        long[] result = new long[rows];
        for (int i = 0; i < rows; i++) {
            result[i] = values[i] + amounts[i];
        }
        return TemporalResults.longs(result, QuiverTypes.DATE32, display, rows, allocator, date, days);
    }

    /** {@code date - days}, a DATE. */
    public static FieldVector subtractDays(Operand date, Operand days, String display, int rows, BufferAllocator allocator) {
        long[] values = Numeric.decodeLongs(date);
        long[] amounts = Numeric.decodeLongs(days);
        long[] result = new long[rows];
        for (int i = 0; i < rows; i++) {
            result[i] = values[i] - amounts[i];
        }
        return TemporalResults.longs(result, QuiverTypes.DATE32, display, rows, allocator, date, days);
    }

    /** {@code x + months}: a DATE for a DATE, a TIMESTAMP (same time of day) for a TIMESTAMP. */
    public static FieldVector addMonths(Operand input, Operand months, ArrowType type, String display, int rows, BufferAllocator allocator) {
        boolean timestamp = input.type() instanceof ArrowType.Timestamp;
        long[] values = Numeric.decodeLongs(input);
        long[] amounts = Numeric.decodeLongs(months);
        long[] result = new long[rows];
        for (int i = 0; i < rows; i++) {
            if (input.isNull(i) || months.isNull(i)) {
                continue;
            }
            result[i] = timestamp ? plusMonths(values[i], amounts[i], display) : plusMonths((int) values[i], amounts[i], display);
        }
        return TemporalResults.longs(result, type, display, rows, allocator, input, months);
    }

    /** The DATE {@code months} after {@code days}; NUMERIC_VALUE_OUT_OF_RANGE past the DATE range. */
    public static int plusMonths(int days, long months, String display) {
        long shifted = shiftMonths(days, months);
        if (shifted != (int) shifted) {
            throw TemporalResults.outOfRange(QuiverTypes.DATE32, display);
        }
        return (int) shifted;
    }

    /** The TIMESTAMP {@code months} after {@code micros}, at the same time of day. */
    public static long plusMonths(long micros, long months, String display) {
        long days = shiftMonths(DateKernels.days(micros), months);
        return timestampOf(days, DateKernels.microsOfDay(micros), display);
    }

    /** {@code micros + delta}; NUMERIC_VALUE_OUT_OF_RANGE when it overflows. */
    public static long plusMicros(long micros, long delta, String display) {
        try {
            return Math.addExact(micros, delta);
        } catch (ArithmeticException e) {
            throw TemporalResults.outOfRange(QuiverTypes.TIMESTAMP, display);
        }
    }

    /** {@code timestamp + micros}, a TIMESTAMP; overflow is NUMERIC_VALUE_OUT_OF_RANGE. */
    public static FieldVector addMicros(Operand timestamp, Operand micros, String display, int rows, BufferAllocator allocator) {
        long[] values = Numeric.decodeLongs(timestamp);
        long[] amounts = Numeric.decodeLongs(micros);
        long[] result = new long[rows];
        for (int i = 0; i < rows; i++) {
            if (!timestamp.isNull(i) && !micros.isNull(i)) {
                result[i] = plusMicros(values[i], amounts[i], display);
            }
        }
        return TemporalResults.longs(result, QuiverTypes.TIMESTAMP, display, rows, allocator, timestamp, micros);
    }

    /** Integers counting {@code unit} microseconds since 1970-01-01 as TIMESTAMPs ({@code epoch_ms(bigint)}, {@code make_timestamp(micros)}). */
    public static FieldVector timestampFromUnits(Operand count, long unit, String display, int rows, BufferAllocator allocator) {
        long[] values = Numeric.decodeLongs(count);
        long[] result = new long[rows];
        for (int i = 0; i < rows; i++) {
            long micros = values[i] * unit;
            if (unit != 1 && (Math.abs(values[i]) > Long.MAX_VALUE / unit) && !count.isNull(i)) {
                throw TemporalResults.outOfRange(QuiverTypes.TIMESTAMP, display);
            }
            result[i] = micros;
        }
        return TemporalResults.longs(result, QuiverTypes.TIMESTAMP, display, rows, allocator, count);
    }

    /** Seconds since 1970-01-01 (with a fraction) as TIMESTAMPs, rounded to the microsecond ({@code to_timestamp}). */
    public static FieldVector timestampFromSeconds(Operand seconds, String display, int rows, BufferAllocator allocator) {
        double[] values = Numeric.decodeDoubles(seconds);
        long[] result = new long[rows];
        for (int i = 0; i < rows; i++) {
            double micros = values[i] * DateKernels.MICROS_PER_SECOND;
            if (!(Math.abs(micros) < 9.2e18) && !seconds.isNull(i)) {
                throw TemporalResults.outOfRange(QuiverTypes.TIMESTAMP, display);
            }
            result[i] = Math.round(micros);
        }
        return TemporalResults.longs(result, QuiverTypes.TIMESTAMP, display, rows, allocator, seconds);
    }

    /** DATEs or TIMESTAMPs as whole {@code unit}s of microseconds since 1970-01-01, rounded half away from zero as DuckDB ({@code epoch_ms}). */
    public static FieldVector epochUnits(Operand input, long unit, String display, int rows, BufferAllocator allocator) {
        long[] micros = TemporalResults.micros(input);
        long[] result = new long[rows];
        for (int i = 0; i < rows; i++) {
            if (unit == 1) {
                result[i] = micros[i];
            } else {
                long halves = micros[i] / (unit / 2);
                result[i] = (halves + (halves < 0 ? -1 : 1)) / 2;
            }
        }
        return TemporalResults.longs(result, QuiverTypes.INT64, display, rows, allocator, input);
    }

    /** The last day of the month of each DATE or TIMESTAMP, a DATE. */
    public static FieldVector lastDay(Operand input, String display, int rows, BufferAllocator allocator) {
        long[] micros = TemporalResults.micros(input);
        long[] result = new long[rows];
        for (int i = 0; i < rows; i++) {
            result[i] = DateKernels.lastDayOfMonth(DateKernels.days(micros[i]));
        }
        return TemporalResults.longs(result, QuiverTypes.DATE32, display, rows, allocator, input);
    }

    /** {@code make_date(year, month, day)}; a day that does not exist is INVALID_ARGUMENT. */
    public static FieldVector makeDate(Operand year, Operand month, Operand day, String display, int rows, BufferAllocator allocator) {
        long[] years = Numeric.decodeLongs(year);
        long[] months = Numeric.decodeLongs(month);
        long[] days = Numeric.decodeLongs(day);
        long[] result = new long[rows];
        for (int i = 0; i < rows; i++) {
            if (year.isNull(i) || month.isNull(i) || day.isNull(i)) {
                continue;
            }
            result[i] = date(years[i], months[i], days[i], display);
        }
        return TemporalResults.longs(result, QuiverTypes.DATE32, display, rows, allocator, year, month, day);
    }

    /**
     * {@code make_timestamp(year, month, day, hour, minute, seconds)} with fractional seconds,
     * rounded to the microsecond; fields out of range are INVALID_ARGUMENT.
     */
    public static FieldVector makeTimestamp(Operand[] fields, String display, int rows, BufferAllocator allocator) {
        long[] years = Numeric.decodeLongs(fields[0]);
        long[] months = Numeric.decodeLongs(fields[1]);
        long[] days = Numeric.decodeLongs(fields[2]);
        long[] hours = Numeric.decodeLongs(fields[3]);
        long[] minutes = Numeric.decodeLongs(fields[4]);
        double[] seconds = Numeric.decodeDoubles(fields[5]);
        long[] result = new long[rows];
        for (int i = 0; i < rows; i++) {
            if (anyNull(fields, i)) {
                continue;
            }
            long date = date(years[i], months[i], days[i], display);
            long micros = Math.round(seconds[i] * DateKernels.MICROS_PER_SECOND);
            if (hours[i] < 0 || hours[i] > 23 || minutes[i] < 0 || minutes[i] > 59 || micros < 0 || micros >= 60 * DateKernels.MICROS_PER_SECOND) {
                throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "Time out of range in " + display + ": " + hours[i] + ":" + minutes[i]
                        + ":" + seconds[i]);
            }
            result[i] = date * DateKernels.MICROS_PER_DAY + hours[i] * DateKernels.MICROS_PER_HOUR + minutes[i] * DateKernels.MICROS_PER_MINUTE
                    + micros;
        }
        return TemporalResults.longs(result, QuiverTypes.TIMESTAMP, display, rows, allocator, fields);
    }

    private static boolean anyNull(Operand[] operands, int row) {
        for (Operand operand : operands) {
            if (operand.isNull(row)) {
                return true;
            }
        }
        return false;
    }

    private static long date(long year, long month, long day, String display) {
        if (Math.abs(year) > 5_000_000 || month < 1 || month > 12 || day < 1 || day > DateKernels.daysInMonth(year, (int) month)) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "Date out of range in " + display + ": " + year + "-" + month + "-" + day);
        }
        return DateKernels.daysFromCivil(year, (int) month, (int) day);
    }

    /** The date {@code months} after {@code days}, or a value outside the DATE range when the year leaves ±5 million. */
    private static long shiftMonths(int days, long months) {
        if (Math.abs(months) > MAX_MONTHS) {
            return Long.MAX_VALUE;
        }
        long year = Math.floorDiv(DateKernels.year(days) * 12L + DateKernels.month(days) - 1 + months, 12);
        return Math.abs(year) > 5_000_000 ? Long.MAX_VALUE : DateKernels.addMonths(days, months);
    }

    private static long timestampOf(long days, long microsOfDay, String display) {
        if (Math.abs(days) >= Long.MAX_VALUE / DateKernels.MICROS_PER_DAY - 1) {
            throw TemporalResults.outOfRange(QuiverTypes.TIMESTAMP, display);
        }
        return days * DateKernels.MICROS_PER_DAY + microsOfDay;
    }
}
