package dev.quiver.engine.source.csv;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.types.QuiverTypes;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Reads the fields of one CSV column straight from the row reader's bytes into an Arrow vector:
 * integers, decimals and dates are parsed from the bytes; only doubles and timestamps go through
 * a string. An unquoted field that is one of the format's NULL strings (by default the empty
 * field) is NULL; a quoted field never is (a quoted empty field is an empty VARCHAR).
 */
final class CsvValueParser {
    private static final long[] POWERS_OF_TEN = new long[19];

    static {
        POWERS_OF_TEN[0] = 1;
        for (int i = 1; i < POWERS_OF_TEN.length; i++) {
            POWERS_OF_TEN[i] = POWERS_OF_TEN[i - 1] * 10;
        }
    }

    private final Field field;
    private final CsvColumnKind kind;
    private final int scale;
    private final int precision;
    private final byte[][] scratch = {new byte[64]};
    private FieldVector vector;

    CsvValueParser(Field field, String file) {
        this.field = requireNonNull(field, "field is null");
        this.kind = CsvColumnKind.of(field, file);
        if (field.getType() instanceof ArrowType.Decimal decimal) {
            this.scale = decimal.getScale();
            this.precision = decimal.getPrecision();
        } else {
            this.scale = 0;
            this.precision = 0;
        }
    }

    /** Directs the next values to {@code target}, allocated for at least the batch's rows. */
    void bind(FieldVector target) {
        this.vector = target;
    }

    void read(CsvRowReader row, int fieldIndex, int index) {
        byte[] bytes = row.buffer();
        int start = row.start(fieldIndex);
        int end = row.end(fieldIndex);
        if (row.isNull(fieldIndex)) {
            if (!field.isNullable()) {
                throw bad(row, fieldIndex, "is NULL, but the column is NOT NULL");
            }
            vector.setNull(index);
            return;
        }
        if (row.escaped(fieldIndex)) {
            end = row.unescape(fieldIndex, scratch);
            start = 0;
            bytes = scratch[0];
        }
        switch (kind) {
            case VARCHAR -> ((VarCharVector) vector).setSafe(index, bytes, start, end - start);
            case BIGINT -> ((BigIntVector) vector).set(index, parseLong(bytes, start, end, row, fieldIndex));
            case INT -> {
                long value = parseLong(bytes, start, end, row, fieldIndex);
                if (value != (int) value) {
                    throw bad(row, fieldIndex, "is out of range for INTEGER");
                }
                ((IntVector) vector).set(index, (int) value);
            }
            case DOUBLE -> ((Float8Vector) vector).set(index, parseDouble(row, fieldIndex));
            case DECIMAL -> readDecimal(bytes, start, end, row, fieldIndex, index);
            case DATE -> ((DateDayVector) vector).set(index, parseDate(bytes, start, end, row, fieldIndex));
            case BOOLEAN -> ((BitVector) vector).set(index, parseBoolean(bytes, start, end, row, fieldIndex) ? 1 : 0);
            case TIMESTAMP -> ((TimeStampMicroVector) vector).set(index, parseTimestamp(row, fieldIndex));
            default -> throw new IllegalStateException("unexpected kind " + kind);
        }
    }

    private long parseLong(byte[] bytes, int start, int end, CsvRowReader row, int fieldIndex) {
        int i = start;
        boolean negative = false;
        if (i < end && (bytes[i] == '-' || bytes[i] == '+')) {
            negative = bytes[i] == '-';
            i++;
        }
        if (i == end || end - i > 19) {
            throw bad(row, fieldIndex, "is not an integer");
        }
        // accumulated as a negative number: Long.MIN_VALUE has no positive counterpart
        long value = 0;
        for (; i < end; i++) {
            int digit = bytes[i] - '0';
            if (digit < 0 || digit > 9) {
                throw bad(row, fieldIndex, "is not an integer");
            }
            if (value < (Long.MIN_VALUE + digit) / 10) {
                throw bad(row, fieldIndex, "is out of range for BIGINT");
            }
            value = value * 10 - digit;
        }
        if (!negative && value == Long.MIN_VALUE) {
            throw bad(row, fieldIndex, "is out of range for BIGINT");
        }
        return negative ? value : -value;
    }

    private double parseDouble(CsvRowReader row, int fieldIndex) {
        String text = row.text(fieldIndex);
        try {
            return Double.parseDouble(text);
        } catch (NumberFormatException e) {
            throw bad(row, fieldIndex, "is not a number");
        }
    }

    /** Digits fitting a long with at most {@code scale} fraction digits take the fast path. */
    private void readDecimal(byte[] bytes, int start, int end, CsvRowReader row, int fieldIndex, int index) {
        int i = start;
        boolean negative = false;
        if (i < end && (bytes[i] == '-' || bytes[i] == '+')) {
            negative = bytes[i] == '-';
            i++;
        }
        long unscaled = 0;
        int digits = 0;
        int fraction = -1;
        boolean fast = i < end;
        for (; i < end && fast; i++) {
            byte b = bytes[i];
            if (b == '.' && fraction < 0) {
                fraction = 0;
                continue;
            }
            int digit = b - '0';
            if (digit < 0 || digit > 9 || digits == 18) {
                fast = false;
                break;
            }
            unscaled = unscaled * 10 + digit;
            digits++;
            if (fraction >= 0) {
                fraction++;
            }
        }
        int fractionDigits = Math.max(fraction, 0);
        if (fast && digits > 0 && fractionDigits <= scale) {
            unscaled *= POWERS_OF_TEN[scale - fractionDigits];
            int integerDigits = digits - fractionDigits;
            if (integerDigits + scale <= 18) {
                ((DecimalVector) vector).set(index, negative ? -unscaled : unscaled);
                if (integerDigits <= precision - scale) {
                    return;
                }
            }
        }
        readDecimalSlow(row, fieldIndex, index);
    }

    private void readDecimalSlow(CsvRowReader row, int fieldIndex, int index) {
        BigDecimal value;
        try {
            value = new BigDecimal(row.text(fieldIndex)).setScale(scale, RoundingMode.HALF_UP);
        } catch (NumberFormatException | ArithmeticException e) {
            throw bad(row, fieldIndex, "is not a number");
        }
        if (value.precision() > precision) {
            throw bad(row, fieldIndex, "does not fit " + QuiverTypes.sqlName(field.getType()));
        }
        ((DecimalVector) vector).setSafe(index, value);
    }

    private int parseDate(byte[] bytes, int start, int end, CsvRowReader row, int fieldIndex) {
        if (end - start != 10 || bytes[start + 4] != '-' || bytes[start + 7] != '-') {
            throw bad(row, fieldIndex, "is not a date (YYYY-MM-DD)");
        }
        int year = digits(bytes, start, 4);
        int month = digits(bytes, start + 5, 2);
        int day = digits(bytes, start + 8, 2);
        if (year < 0 || month < 1 || month > 12 || day < 1 || day > YearMonth.of(year, month).lengthOfMonth()) {
            throw bad(row, fieldIndex, "is not a date (YYYY-MM-DD)");
        }
        return (int) LocalDate.of(year, month, day).toEpochDay();
    }

    private static int digits(byte[] bytes, int start, int count) {
        int value = 0;
        for (int i = start; i < start + count; i++) {
            int digit = bytes[i] - '0';
            if (digit < 0 || digit > 9) {
                return -1_000_000;
            }
            value = value * 10 + digit;
        }
        return value;
    }

    private boolean parseBoolean(byte[] bytes, int start, int end, CsvRowReader row, int fieldIndex) {
        String text = new String(bytes, start, end - start, StandardCharsets.US_ASCII);
        if (text.equalsIgnoreCase("true")) {
            return true;
        }
        if (text.equalsIgnoreCase("false")) {
            return false;
        }
        throw bad(row, fieldIndex, "is not a boolean (true or false)");
    }

    private long parseTimestamp(CsvRowReader row, int fieldIndex) {
        try {
            LocalDateTime value = LocalDateTime.parse(row.text(fieldIndex).replace(' ', 'T'));
            long seconds = value.toEpochSecond(ZoneOffset.UTC);
            return Math.addExact(Math.multiplyExact(seconds, 1_000_000L), value.getNano() / 1000);
        } catch (DateTimeParseException | ArithmeticException e) {
            throw bad(row, fieldIndex, "is not a timestamp (YYYY-MM-DD HH:MM:SS[.ffffff])");
        }
    }

    private QuiverException bad(CsvRowReader row, int fieldIndex, String problem) {
        String text = row.text(fieldIndex);
        if (text.length() > 60) {
            text = text.substring(0, 60) + "...";
        }
        return new QuiverException(ErrorCode.SOURCE_ERROR, "CSV file " + row.file() + " line " + row.rowLine() + ", column '"
                + field.getName() + "': '" + text + "' " + problem + " (the column is " + QuiverTypes.sqlName(field.getType()) + ")");
    }
}
