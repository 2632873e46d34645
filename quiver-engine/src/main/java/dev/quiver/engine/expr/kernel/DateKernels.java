package dev.quiver.engine.expr.kernel;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * Calendar arithmetic on DATE values (days since 1970-01-01, proleptic Gregorian) with Howard
 * Hinnant's integer civil-from-days algorithms, so no {@code LocalDate} per row.
 */
public final class DateKernels {
    private static final long MICROS_PER_DAY = 86_400_000_000L;

    /** Which field EXTRACT reads. */
    public enum Field {
        YEAR, MONTH, DAY
    }

    private DateKernels() {}

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

    /** EXTRACT(field FROM input) as BIGINT (or INTEGER when {@code type} says so); input is DATE or TIMESTAMP. */
    public static FieldVector extract(Field field, Operand input, ArrowType type, int rows, BufferAllocator allocator) {
        long[] values = Numeric.decodeLongs(input);
        boolean timestamp = input.type() instanceof ArrowType.Timestamp;
        long[] result = new long[rows];
        for (int i = 0; i < rows; i++) {
            int days = timestamp ? (int) Math.floorDiv(values[i], MICROS_PER_DAY) : (int) values[i];
            result[i] = switch (field) {
                case YEAR -> year(days);
                case MONTH -> month(days);
                case DAY -> dayOfMonth(days);
            };
        }
        return longResult(result, input, null, type, rows, allocator, "EXTRACT");
    }

    /** {@code date + n} days or months (n INTEGER or BIGINT). */
    public static FieldVector add(boolean months, Operand date, Operand amount, ArrowType type, int rows, BufferAllocator allocator) {
        if (date.isNullConstant() || amount.isNullConstant()) {
            return Vectors.constant(type, null, rows, allocator);
        }
        long[] days = Numeric.decodeLongs(date);
        long[] n = Numeric.decodeLongs(amount);
        long[] result = new long[rows];
        for (int i = 0; i < rows; i++) {
            long value = months ? addMonths((int) days[i], n[i]) : days[i] + n[i];
            if (value != (int) value) {
                throw new QuiverException(ErrorCode.NUMERIC_VALUE_OUT_OF_RANGE,
                        "Date out of range in " + (months ? "DATE_ADD_MONTHS" : "DATE_ADD_DAYS") + ": " + days[i] + " days plus " + n[i]);
            }
            result[i] = value;
        }
        return longResult(result, date, amount, type, rows, allocator, months ? "DATE_ADD_MONTHS" : "DATE_ADD_DAYS");
    }

    private static FieldVector longResult(long[] result, Operand a, Operand b, ArrowType type, int rows, BufferAllocator allocator,
            String display) {
        FieldVector out = Vectors.allocate(type, rows, allocator);
        try {
            ArrowBuf data = out.getDataBuffer();
            if (type instanceof ArrowType.Date || (type instanceof ArrowType.Int i && i.getBitWidth() == 32)) {
                ArithmeticKernels.writeLongs(result, out, type, display, rows);
            } else {
                for (int i = 0; i < rows; i++) {
                    data.setLong((long) i * 8, result[i]);
                }
            }
            if (b == null) {
                Validity.and(out, rows, a);
            } else {
                Validity.and(out, rows, a, b);
            }
            out.setValueCount(rows);
            return out;
        } catch (RuntimeException e) {
            out.close();
            throw e;
        }
    }
}
