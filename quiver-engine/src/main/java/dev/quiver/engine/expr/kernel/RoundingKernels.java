package dev.quiver.engine.expr.kernel;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.types.Decimal128;
import dev.quiver.engine.types.QuiverTypes;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * round, trunc, floor and ceil to a number of decimal digits (negative: tens, hundreds, ...).
 * Integers and decimals round exactly on unscaled values (128 bits); doubles as DuckDB does,
 * {@code x * 10^d} rounded and divided back, keeping x where that overflows.
 */
public final class RoundingKernels {
    /** Which way a value moves to the nearest multiple of 10^-digits. */
    public enum Mode { HALF_AWAY_FROM_ZERO, TOWARD_ZERO, FLOOR, CEILING }

    private RoundingKernels() {}

    /** {@code input} rounded to {@code digits}, as a vector of {@code type} (the input's numeric type, or a decimal with fewer digits, or DOUBLE). */
    public static FieldVector round(Mode mode, Operand input, int digits, ArrowType type, String display, int rows, BufferAllocator allocator) {
        if (type instanceof ArrowType.FloatingPoint) {
            return doubles(mode, Numeric.decodeDoubles(input), digits, input, rows, allocator);
        }
        if (input.type() instanceof ArrowType.FloatingPoint) {
            throw new QuiverException(ErrorCode.INTERNAL_ERROR, "rounding a DOUBLE to " + QuiverTypes.sqlName(type) + ": " + display);
        }
        int from = Numeric.scale(input.type());
        int resultScale = Numeric.scale(type);
        long[] high = new long[rows];
        long[] low = new long[rows];
        Numeric.decode128(input, high, low);
        ArrowType.Decimal wide = QuiverTypes.decimal(38, resultScale);
        FieldVector out = Vectors.allocate(wide, rows, allocator);
        try {
            Decimal128 value = new Decimal128();
            Decimal128 divisor = new Decimal128();
            Decimal128 remainder = new Decimal128();
            ArrowBuf data = out.getDataBuffer();
            for (int i = 0; i < rows; i++) {
                value.set(high[i], low[i]);
                if (digits < from) {
                    int drop = from - digits;
                    if (drop > 38) {
                        value.set(0);
                    } else {
                        roundAway(mode, value, drop, divisor, remainder);
                        // back to the input's scale: digits below 10^-digits are now zero
                        value.scaleUp(drop);
                    }
                }
                value.rescale(from, resultScale, divisor);
                if (value.exceedsPrecision(Numeric.precision(type))) {
                    throw ArithmeticKernels.outOfRange(type, display);
                }
                value.write(data, i);
            }
            Validity.and(out, rows, input);
            out.setValueCount(rows);
        } catch (ArithmeticException e) {
            out.close();
            throw ArithmeticKernels.outOfRange(type, display);
        } catch (RuntimeException e) {
            out.close();
            throw e;
        }
        return toType(out, wide, resultScale, type, display, rows, allocator);
    }

    /** {@code value / 10^drop} moved to a whole number by {@code mode}. */
    private static void roundAway(Mode mode, Decimal128 value, int drop, Decimal128 divisor, Decimal128 remainder) {
        divisor.set(1).scaleUp(drop);
        if (mode == Mode.HALF_AWAY_FROM_ZERO) {
            value.divideRoundHalfUp(divisor, null);
            return;
        }
        value.divideTruncate(divisor, remainder);
        if (mode == Mode.FLOOR && remainder.isNegative()) {
            value.add(-1);
        } else if (mode == Mode.CEILING && !remainder.isNegative() && !remainder.isZero()) {
            value.add(1);
        }
    }

    private static FieldVector toType(FieldVector out, ArrowType.Decimal wide, int scale, ArrowType type, String display, int rows,
            BufferAllocator allocator) {
        if (type.equals(wide)) {
            return out;
        }
        try (Operand widened = Operand.of(wide, out, rows)) {
            if (type instanceof ArrowType.Decimal) {
                return CastKernels.cast(widened, type, display, rows, allocator);
            }
            return CastKernels.decimalToInteger((DecimalVector) widened.vector(), scale, type, display, rows, allocator);
        }
    }

    private static FieldVector doubles(Mode mode, double[] values, int digits, Operand input, int rows, BufferAllocator allocator) {
        double factor = Math.pow(10, digits);
        for (int i = 0; i < rows; i++) {
            double v = values[i];
            double scaled = digits == 0 ? v : v * factor;
            double moved = switch (mode) {
                case HALF_AWAY_FROM_ZERO -> halfAwayFromZero(scaled);
                case TOWARD_ZERO -> scaled < 0 ? Math.ceil(scaled) : Math.floor(scaled);
                case FLOOR -> Math.floor(scaled);
                case CEILING -> Math.ceil(scaled);
            };
            double result = digits == 0 ? moved : moved / factor;
            values[i] = Double.isInfinite(result) || Double.isNaN(result) ? v : result;
        }
        return Results.doubles(values, rows, allocator, input);
    }

    /** C's {@code round}: halves away from zero, exactly (the fraction of a double is computed without error). */
    static double halfAwayFromZero(double v) {
        double magnitude = Math.abs(v);
        double whole = Math.floor(magnitude);
        if (magnitude - whole >= 0.5) {
            whole += 1;
        }
        return Math.copySign(whole, v);
    }
}
