package dev.quiver.engine.expr.kernel;

import dev.quiver.engine.batch.VectorValues;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.types.Decimal128;
import dev.quiver.engine.types.DecimalMath;
import dev.quiver.engine.types.QuiverTypes;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * CAST between the Quiver types. Numeric casts run on primitive arrays (decimals on unscaled
 * longs, 128 bits when needed) and round HALF_UP; casts from and to VARCHAR go value by value,
 * since each produces or parses a string anyway.
 */
public final class CastKernels {
    private static final long MICROS_PER_DAY = 86_400_000_000L;

    private CastKernels() {}

    public static FieldVector cast(Operand input, ArrowType target, String display, int rows, BufferAllocator allocator) {
        ArrowType source = input.type();
        if (input.isNullConstant() || source instanceof ArrowType.Null) {
            return Vectors.constant(target, null, rows, allocator);
        }
        if (source.equals(target)) {
            return input.materialize(allocator);
        }
        boolean numericSource = source instanceof ArrowType.Int || source instanceof ArrowType.Decimal || source instanceof ArrowType.Bool;
        if (target instanceof ArrowType.Decimal decimal && numericSource) {
            return toDecimal(input, decimal, display, rows, allocator);
        }
        if (target instanceof ArrowType.Int && numericSource) {
            if (source instanceof ArrowType.Decimal) {
                try (FieldVector rounded = toDecimal(input, QuiverTypes.decimal(38, 0), display, rows, allocator)) {
                    return decimalToInteger((DecimalVector) rounded, 0, target, display, rows, allocator);
                }
            }
            return fromLongs(Numeric.decodeLongs(input), input, target, display, rows, allocator);
        }
        if (target instanceof ArrowType.FloatingPoint && (numericSource || source instanceof ArrowType.FloatingPoint)) {
            double[] values = Numeric.decodeDoubles(input);
            FieldVector out = Vectors.allocate(target, rows, allocator);
            ArrowBuf data = out.getDataBuffer();
            for (int i = 0; i < rows; i++) {
                data.setDouble((long) i * 8, values[i]);
            }
            Validity.and(out, rows, input);
            out.setValueCount(rows);
            return out;
        }
        if (target instanceof ArrowType.Date && source instanceof ArrowType.Timestamp) {
            long[] values = Numeric.decodeLongs(input);
            for (int i = 0; i < rows; i++) {
                values[i] = Math.floorDiv(values[i], MICROS_PER_DAY);
            }
            return fromLongs(values, input, target, display, rows, allocator);
        }
        if (target instanceof ArrowType.Timestamp && source instanceof ArrowType.Date) {
            long[] values = Numeric.decodeLongs(input);
            for (int i = 0; i < rows; i++) {
                values[i] *= MICROS_PER_DAY;
            }
            return fromLongs(values, input, target, display, rows, allocator);
        }
        return valueByValue(input, target, display, rows, allocator);
    }

    /** The cast of one constant, computed by the same kernel as a cast of a column (the planner casts literals with it). */
    public static Object castConstant(Object value, ArrowType source, ArrowType target, String display) {
        try (BufferAllocator allocator = new org.apache.arrow.memory.RootAllocator(1L << 20);
                Operand operand = Operand.constant(source, value, 1);
                FieldVector result = cast(operand, target, display, 1, allocator)) {
            return VectorValues.get(result, 0);
        }
    }

    /**
     * TRY_CAST: the cast of the whole batch when every value converts; otherwise value by value,
     * with NULL for each value that does not.
     */
    public static FieldVector tryCast(Operand input, ArrowType target, String display, int rows, BufferAllocator allocator) {
        try {
            return cast(input, target, display, rows, allocator);
        } catch (QuiverException e) {
            if (!isRejectedValue(e)) {
                throw e;
            }
        }
        FieldVector out = Vectors.allocate(target, rows, allocator);
        try {
            for (int i = 0; i < rows; i++) {
                if (input.isNull(i)) {
                    continue;
                }
                try (Operand one = input.isConstant() ? Operand.constant(input.type(), input.constant(), 1)
                        : Operand.of(input.type(), Vectors.slice(input.vector(), i, allocator), 1);
                        FieldVector converted = cast(one, target, display, 1, allocator)) {
                    out.copyFromSafe(0, i, converted);
                } catch (QuiverException e) {
                    if (!isRejectedValue(e)) {
                        throw e;
                    }
                }
            }
            out.setValueCount(rows);
            return out;
        } catch (RuntimeException e) {
            out.close();
            throw e;
        }
    }

    private static boolean isRejectedValue(QuiverException e) {
        return e.errorCode() == ErrorCode.INVALID_CAST || e.errorCode() == ErrorCode.NUMERIC_VALUE_OUT_OF_RANGE;
    }

    private static FieldVector fromLongs(long[] values, Operand input, ArrowType target, String display, int rows,
            BufferAllocator allocator) {
        FieldVector out = Vectors.allocate(target, rows, allocator);
        try {
            if (target instanceof ArrowType.Int i && i.getBitWidth() == 32 || target instanceof ArrowType.Date
                    || target instanceof ArrowType.Int i64 && i64.getBitWidth() == 64 || target instanceof ArrowType.Timestamp) {
                ArithmeticKernels.writeLongs(values, out, target, display, rows);
            } else {
                throw new QuiverException(ErrorCode.INVALID_CAST, "Cannot cast to " + QuiverTypes.sqlName(target) + ": " + display);
            }
            Validity.and(out, rows, input);
            out.setValueCount(rows);
            return out;
        } catch (RuntimeException e) {
            out.close();
            throw e;
        }
    }

    private static FieldVector toDecimal(Operand input, ArrowType.Decimal target, String display, int rows, BufferAllocator allocator) {
        int from = Numeric.scale(input.type());
        int to = target.getScale();
        int precision = target.getPrecision();
        FieldVector out = Vectors.allocate(target, rows, allocator);
        try {
            ArrowBuf data = out.getDataBuffer();
            long[] values = Numeric.decodeLongs(input);
            boolean done = false;
            if (values != null) {
                try {
                    Numeric.rescale(values, from, to);
                    for (int i = 0; i < rows; i++) {
                        long v = values[i];
                        if (DecimalMath.exceedsPrecision(v, precision)) {
                            throw ArithmeticKernels.outOfRange(target, display);
                        }
                        data.setLong((long) i * 16, v);
                        data.setLong((long) i * 16 + 8, v >> 63);
                    }
                    done = true;
                } catch (ArithmeticException e) {
                    done = false;
                }
            }
            if (!done) {
                long[] high = new long[rows];
                long[] low = new long[rows];
                Numeric.decode128(input, high, low);
                Decimal128 value = new Decimal128();
                Decimal128 scratch = new Decimal128();
                for (int i = 0; i < rows; i++) {
                    try {
                        value.set(high[i], low[i]).rescale(from, to, scratch);
                    } catch (ArithmeticException e) {
                        throw ArithmeticKernels.outOfRange(target, display);
                    }
                    if (value.exceedsPrecision(precision)) {
                        throw ArithmeticKernels.outOfRange(target, display);
                    }
                    value.write(data, i);
                }
            }
            Validity.and(out, rows, input);
            out.setValueCount(rows);
            return out;
        } catch (RuntimeException e) {
            out.close();
            throw e;
        }
    }

    /** A DECIMAL vector of the given scale, rounded HALF_UP to an INTEGER or BIGINT vector. */
    public static FieldVector decimalToInteger(DecimalVector input, int scale, ArrowType target, String display, int rows,
            BufferAllocator allocator) {
        long[] values = new long[rows];
        ArrowBuf data = input.getDataBuffer();
        Decimal128 value = new Decimal128();
        Decimal128 scratch = new Decimal128();
        for (int i = 0; i < rows; i++) {
            if (input.isNull(i)) {
                continue;
            }
            value.read(data, i).rescale(scale, 0, scratch);
            if (!value.fitsInLong()) {
                throw ArithmeticKernels.outOfRange(target, display);
            }
            values[i] = value.low();
        }
        try (Operand operand = Operand.of(input.getField().getType(), Vectors.share(input, rows, allocator), rows)) {
            return fromLongs(values, operand, target, display, rows, allocator);
        }
    }

    private static FieldVector valueByValue(Operand input, ArrowType target, String display, int rows, BufferAllocator allocator) {
        FieldVector out = Vectors.allocate(target, rows, allocator);
        try {
            Object constant = input.isConstant() ? input.constant() : null;
            for (int i = 0; i < rows; i++) {
                Object value = input.isConstant() ? constant : VectorValues.get(input.vector(), i);
                if (value == null) {
                    VectorValues.setNull(out, i);
                } else {
                    VectorValues.set(out, i, convert(value, input.type(), target, display));
                }
            }
            out.setValueCount(rows);
            return out;
        } catch (RuntimeException e) {
            out.close();
            throw e;
        }
    }

    /** Converts one non-null value; the slow path for casts involving strings, doubles to exact types, booleans. */
    static Object convert(Object value, ArrowType source, ArrowType target, String display) {
        if (target instanceof ArrowType.Utf8) {
            return toText(value, source);
        }
        if (value instanceof String text) {
            return parse(text, target, display);
        }
        if (value instanceof Double d) {
            if (d.isNaN() || d.isInfinite()) {
                throw invalid(value, target);
            }
            if (target instanceof ArrowType.Decimal decimal) {
                return checkDecimal(TextFormats.doubleToDecimal(d, decimal.getScale()), decimal, display);
            }
            if (target instanceof ArrowType.Int i) {
                // to the nearest integer, halves to even (rint), as DuckDB and PostgreSQL do
                return checkInteger(new BigDecimal(Math.rint(d)), i, display);
            }
            if (target instanceof ArrowType.Bool) {
                return d != 0;
            }
            throw invalid(value, target);
        }
        if (value instanceof Boolean b) {
            if (target instanceof ArrowType.Int i) {
                return i.getBitWidth() == 32 ? (Object) (b ? 1 : 0) : (Object) (b ? 1L : 0L);
            }
            if (target instanceof ArrowType.FloatingPoint) {
                return b ? 1.0 : 0.0;
            }
            if (target instanceof ArrowType.Decimal decimal) {
                return BigDecimal.valueOf(b ? 1 : 0).setScale(decimal.getScale());
            }
            throw invalid(value, target);
        }
        if (target instanceof ArrowType.Bool && value instanceof Number n) {
            return n.doubleValue() != 0;
        }
        throw new QuiverException(ErrorCode.INVALID_CAST,
                "Cannot cast " + QuiverTypes.sqlName(source) + " to " + QuiverTypes.sqlName(target) + ": " + display);
    }

    private static Object toText(Object value, ArrowType source) {
        if (source instanceof ArrowType.Date) {
            StringBuilder text = new StringBuilder(10);
            DateKernels.format((Integer) value, text);
            return text.toString();
        }
        if (value instanceof BigDecimal d) {
            return d.toPlainString();
        }
        if (value instanceof Double d) {
            return TextFormats.formatDouble(d);
        }
        if (source instanceof ArrowType.Timestamp) {
            return TimestampText.format((Long) value);
        }
        return value.toString();
    }

    private static Object parse(String text, ArrowType target, String display) {
        String trimmed = text.strip();
        try {
            if (target instanceof ArrowType.Int i) {
                return checkInteger(new BigDecimal(trimmed).setScale(0, RoundingMode.HALF_UP), i, display);
            }
            if (target instanceof ArrowType.Decimal decimal) {
                return checkDecimal(new BigDecimal(trimmed).setScale(decimal.getScale(), RoundingMode.HALF_UP), decimal, display);
            }
            if (target instanceof ArrowType.FloatingPoint) {
                return TextFormats.parseDouble(trimmed);
            }
            if (target instanceof ArrowType.Date) {
                long days = DateKernels.parse(trimmed);
                if (days == Long.MIN_VALUE) {
                    // a timestamp's text is its day, as in DuckDB and PostgreSQL
                    long micros = TimestampText.parse(trimmed);
                    if (micros == TimestampText.INVALID) {
                        throw invalid(text, target);
                    }
                    days = DateKernels.days(micros);
                }
                return (int) days;
            }
            if (target instanceof ArrowType.Timestamp) {
                long micros = TimestampText.parse(trimmed);
                if (micros == TimestampText.INVALID) {
                    throw invalid(text, target);
                }
                return micros;
            }
            if (target instanceof ArrowType.Bool) {
                Boolean bool = TextFormats.parseBoolean(text);
                if (bool == null) {
                    throw invalid(text, target);
                }
                return bool;
            }
            throw invalid(text, target);
        } catch (NumberFormatException e) {
            throw invalid(text, target);
        }
    }

    private static Object checkInteger(BigDecimal value, ArrowType.Int type, String display) {
        long max = type.getBitWidth() == 32 ? Integer.MAX_VALUE : Long.MAX_VALUE;
        long min = type.getBitWidth() == 32 ? Integer.MIN_VALUE : Long.MIN_VALUE;
        if (value.compareTo(BigDecimal.valueOf(max)) > 0 || value.compareTo(BigDecimal.valueOf(min)) < 0) {
            throw ArithmeticKernels.outOfRange(type, display);
        }
        return type.getBitWidth() == 32 ? (Object) value.intValue() : (Object) value.longValue();
    }

    private static BigDecimal checkDecimal(BigDecimal value, ArrowType.Decimal type, String display) {
        if (value.precision() - value.scale() > type.getPrecision() - type.getScale()) {
            throw ArithmeticKernels.outOfRange(type, display);
        }
        return value;
    }

    private static QuiverException invalid(Object value, ArrowType target) {
        return new QuiverException(ErrorCode.INVALID_CAST, "Cannot cast '" + value + "' to " + QuiverTypes.sqlName(target));
    }
}
