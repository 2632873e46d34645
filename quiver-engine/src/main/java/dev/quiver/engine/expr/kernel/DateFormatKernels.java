package dev.quiver.engine.expr.kernel;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.types.QuiverTypes;
import java.nio.charset.StandardCharsets;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VarCharVector;

/** {@code strftime}, {@code strptime} and the day and month names, a batch at a time. */
public final class DateFormatKernels {
    private static final String[] DAY_NAMES = {"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"};
    private static final String[] MONTH_NAMES = {"January", "February", "March", "April", "May", "June", "July", "August", "September",
        "October", "November", "December"};

    /** Which name {@link #name} gives. */
    public enum Name {
        DAY, MONTH
    }

    private DateFormatKernels() {}

    /** Each DATE or TIMESTAMP as text in {@code format}. */
    public static FieldVector strftime(Operand input, DateTimeFormat format, int rows, BufferAllocator allocator) {
        long[] micros = TemporalResults.micros(input);
        VarCharVector out = (VarCharVector) Vectors.allocate("expr", QuiverTypes.UTF8, rows, (long) rows * 20, allocator);
        try {
            StringBuilder text = new StringBuilder(32);
            byte[] scratch = new byte[64];
            for (int i = 0; i < rows; i++) {
                if (input.isNull(i)) {
                    out.setNull(i);
                    continue;
                }
                text.setLength(0);
                format.format(micros[i], text);
                scratch = write(out, i, text, scratch);
            }
            out.setValueCount(rows);
            return out;
        } catch (RuntimeException e) {
            out.close();
            throw e;
        }
    }

    /** The English name of each value's day of the week or month. */
    public static FieldVector name(Name name, Operand input, int rows, BufferAllocator allocator) {
        long[] micros = TemporalResults.micros(input);
        VarCharVector out = (VarCharVector) Vectors.allocate("expr", QuiverTypes.UTF8, rows, (long) rows * 9, allocator);
        try {
            for (int i = 0; i < rows; i++) {
                if (input.isNull(i)) {
                    out.setNull(i);
                    continue;
                }
                int days = DateKernels.days(micros[i]);
                String text = name == Name.DAY ? DAY_NAMES[DateKernels.dayOfWeek(days)] : MONTH_NAMES[DateKernels.month(days) - 1];
                out.setSafe(i, text.getBytes(StandardCharsets.US_ASCII));
            }
            out.setValueCount(rows);
            return out;
        } catch (RuntimeException e) {
            out.close();
            throw e;
        }
    }

    /**
     * Each text read as a TIMESTAMP in {@code format}. Text that does not match is
     * INVALID_ARGUMENT, or NULL when {@code lenient} ({@code try_strptime}).
     */
    public static FieldVector strptime(Operand input, DateTimeFormat format, boolean lenient, String display, int rows,
            BufferAllocator allocator) {
        long[] result = new long[rows];
        boolean[] invalid = new boolean[rows];
        try (VarCharVector text = (VarCharVector) input.materialize(allocator)) {
            for (int i = 0; i < rows; i++) {
                if (text.isNull(i)) {
                    continue;
                }
                String value = new String(text.get(i), StandardCharsets.UTF_8);
                long micros;
                try {
                    micros = format.parse(value, display);
                } catch (QuiverException e) {
                    if (!lenient) {
                        throw e;
                    }
                    micros = TimestampText.INVALID;
                }
                if (micros == TimestampText.INVALID) {
                    if (!lenient) {
                        throw new QuiverException(ErrorCode.INVALID_ARGUMENT,
                                "Could not parse '" + value + "' with the format '" + format.pattern() + "' in " + display);
                    }
                    invalid[i] = true;
                } else {
                    result[i] = micros;
                }
            }
        }
        FieldVector out = TemporalResults.longs(result, QuiverTypes.TIMESTAMP, display, rows, allocator, input);
        for (int i = 0; i < rows; i++) {
            if (invalid[i]) {
                ((TimeStampVector) out).setNull(i);
            }
        }
        return out;
    }

    /** Writes ASCII text through {@code scratch} (returned, grown if needed), other text through its UTF-8 bytes. */
    private static byte[] write(VarCharVector out, int row, CharSequence text, byte[] scratch) {
        int length = text.length();
        byte[] bytes = scratch.length >= length ? scratch : new byte[Math.max(length, scratch.length * 2)];
        for (int k = 0; k < length; k++) {
            char c = text.charAt(k);
            if (c >= 0x80) {
                out.setSafe(row, text.toString().getBytes(StandardCharsets.UTF_8));
                return bytes;
            }
            bytes[k] = (byte) c;
        }
        out.setSafe(row, bytes, 0, length);
        return bytes;
    }
}
