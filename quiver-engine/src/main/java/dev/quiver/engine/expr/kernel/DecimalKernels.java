package dev.quiver.engine.expr.kernel;

import dev.quiver.engine.expr.BinaryOperator;
import dev.quiver.engine.types.Decimal128;
import dev.quiver.engine.types.DecimalMath;
import java.math.BigDecimal;
import java.math.RoundingMode;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * Decimal {@code + - * / %} with operands of any integer or decimal type and scale, producing
 * exactly the result type's scale (HALF_UP where digits are dropped). Each batch first runs on
 * unscaled {@code long}s; if any intermediate overflows 64 bits the batch is redone in 128 bits.
 */
public final class DecimalKernels {
    private DecimalKernels() {}

    public static FieldVector arithmetic(BinaryOperator op, Operand left, Operand right, ArrowType.Decimal type, String display,
            int rows, BufferAllocator allocator) {
        FieldVector fast = DecimalFastPath.arithmetic(op, left, right, type, rows, allocator);
        if (fast != null) {
            return fast;
        }
        long[] x = Numeric.decodeLongs(left);
        long[] y = Numeric.decodeLongs(right);
        long[] result = null;
        if (x != null && y != null) {
            try {
                result = longs(op, x, Numeric.scale(left.type()), y, Numeric.scale(right.type()), type.getScale(), left, right, display);
            } catch (ArithmeticException e) {
                result = null; // an intermediate needs more than 64 bits: redo in 128
            }
        }
        FieldVector out = Vectors.allocate(type, rows, allocator);
        try {
            ArrowBuf data = out.getDataBuffer();
            if (result != null) {
                int precision = type.getPrecision();
                for (int i = 0; i < rows; i++) {
                    long v = result[i];
                    if (DecimalMath.exceedsPrecision(v, precision)) {
                        throw ArithmeticKernels.outOfRange(type, display);
                    }
                    data.setLong((long) i * 16, v);
                    data.setLong((long) i * 16 + 8, v >> 63);
                }
            } else {
                wide(op, left, right, type, display, rows, data);
            }
            Validity.and(out, rows, left, right);
            out.setValueCount(rows);
            return out;
        } catch (RuntimeException e) {
            out.close();
            throw e;
        }
    }

    /** The long path; throws ArithmeticException when 64 bits do not suffice. */
    private static long[] longs(BinaryOperator op, long[] x, int sx, long[] y, int sy, int scale, Operand left, Operand right,
            String display) {
        int rows = x.length;
        long[] result = x;
        switch (op) {
            case PLUS, MINUS -> {
                Numeric.rescale(x, sx, scale);
                Numeric.rescale(y, sy, scale);
                if (op == BinaryOperator.PLUS) {
                    for (int i = 0; i < rows; i++) {
                        result[i] = Math.addExact(x[i], y[i]);
                    }
                } else {
                    for (int i = 0; i < rows; i++) {
                        result[i] = Math.subtractExact(x[i], y[i]);
                    }
                }
            }
            case MULTIPLY -> {
                for (int i = 0; i < rows; i++) {
                    result[i] = Math.multiplyExact(x[i], y[i]);
                }
                Numeric.rescale(result, sx + sy, scale);
            }
            case DIVIDE -> {
                int shift = scale + sy - sx;
                if (shift >= 0) {
                    Numeric.scaleUp(x, 0, shift);
                } else {
                    Numeric.scaleUp(y, 0, -shift);
                }
                for (int i = 0; i < rows; i++) {
                    if (y[i] == 0) {
                        ArithmeticKernels.checkDivisor(left, right, i, display);
                        result[i] = 0;
                        continue;
                    }
                    result[i] = DecimalMath.divideRoundHalfUp(x[i], y[i]);
                }
            }
            case MODULO -> {
                int common = Math.max(sx, sy);
                Numeric.scaleUp(x, sx, common);
                Numeric.scaleUp(y, sy, common);
                for (int i = 0; i < rows; i++) {
                    if (y[i] == 0) {
                        ArithmeticKernels.checkDivisor(left, right, i, display);
                        result[i] = 0;
                        continue;
                    }
                    result[i] = x[i] % y[i];
                }
                Numeric.rescale(result, common, scale);
            }
            default -> throw new IllegalArgumentException("not arithmetic: " + op);
        }
        return result;
    }

    private static void wide(BinaryOperator op, Operand left, Operand right, ArrowType.Decimal type, String display, int rows,
            ArrowBuf data) {
        long[] xHigh = new long[rows];
        long[] xLow = new long[rows];
        long[] yHigh = new long[rows];
        long[] yLow = new long[rows];
        Numeric.decode128(left, xHigh, xLow);
        Numeric.decode128(right, yHigh, yLow);
        int sx = Numeric.scale(left.type());
        int sy = Numeric.scale(right.type());
        int scale = type.getScale();
        boolean nulls = left.hasNulls() || right.hasNulls();
        Decimal128 a = new Decimal128();
        Decimal128 b = new Decimal128();
        Decimal128 scratch = new Decimal128();
        Decimal128 saved = new Decimal128();
        try {
            for (int i = 0; i < rows; i++) {
                if (nulls && (left.isNull(i) || right.isNull(i))) {
                    a.set(0).write(data, i);
                    continue;
                }
                a.set(xHigh[i], xLow[i]);
                b.set(yHigh[i], yLow[i]);
                switch (op) {
                    case PLUS -> a.rescale(sx, scale, scratch).add(b.rescale(sy, scale, scratch));
                    case MINUS -> a.rescale(sx, scale, scratch).subtract(b.rescale(sy, scale, scratch));
                    case MULTIPLY -> multiply(a, sx, b, sy, scale, scratch, saved);
                    case DIVIDE -> divide(a, sx, b, sy, scale, scratch, left, right, i, display);
                    case MODULO -> modulo(a, sx, b, sy, scale, scratch, left, right, i, display);
                    default -> throw new IllegalArgumentException("not arithmetic: " + op);
                }
                if (a.exceedsPrecision(type.getPrecision())) {
                    throw ArithmeticKernels.outOfRange(type, display);
                }
                a.write(data, i);
            }
        } catch (ArithmeticException e) {
            throw ArithmeticKernels.outOfRange(type, display);
        }
    }

    /** The exact product rounded to {@code scale}; a product of more than 128 bits (rounded into the type later) takes BigDecimal. */
    private static void multiply(Decimal128 a, int sx, Decimal128 b, int sy, int scale, Decimal128 scratch, Decimal128 saved) {
        saved.set(a);
        try {
            a.multiply(b).rescale(sx + sy, scale, scratch);
        } catch (ArithmeticException e) {
            BigDecimal product = saved.toBigDecimal(sx).multiply(b.toBigDecimal(sy)).setScale(scale, RoundingMode.HALF_UP);
            a.set(product.unscaledValue());
        }
    }

    private static void modulo(Decimal128 a, int sx, Decimal128 b, int sy, int scale, Decimal128 scratch, Operand left, Operand right,
            int row, String display) {
        if (b.isZero()) {
            ArithmeticKernels.checkDivisor(left, right, row, display);
        }
        int common = Math.max(sx, sy);
        long aHigh = a.high();
        long aLow = a.low();
        long bHigh = b.high();
        long bLow = b.low();
        try {
            a.scaleUp(common - sx).divideTruncate(b.scaleUp(common - sy), scratch);
            a.set(scratch).rescale(common, scale, scratch);
        } catch (ArithmeticException e) {
            // an operand at the common scale needs more than 128 bits: rare enough for BigDecimal
            BigDecimal dividend = a.set(aHigh, aLow).toBigDecimal(sx);
            BigDecimal divisor = b.set(bHigh, bLow).toBigDecimal(sy);
            a.set(dividend.remainder(divisor).setScale(scale, RoundingMode.HALF_UP).unscaledValue());
        }
    }

    private static void divide(Decimal128 a, int sx, Decimal128 b, int sy, int scale, Decimal128 scratch, Operand left, Operand right,
            int row, String display) {
        if (b.isZero()) {
            ArithmeticKernels.checkDivisor(left, right, row, display);
        }
        int shift = scale + sy - sx;
        if (shift <= 0 && shift >= -38) {
            scratch.set(b);
            try {
                a.divideRoundHalfUp(b.scaleUp(-shift), null);
                return;
            } catch (ArithmeticException e) {
                b.set(scratch); // the scaled divisor needs more than 128 bits
            }
        } else if (shift <= 38) {
            scratch.set(a);
            try {
                a.scaleUp(shift).divideRoundHalfUp(b, null);
                return;
            } catch (ArithmeticException e) {
                a.set(scratch); // the scaled dividend needs more than 128 bits; rare enough for BigDecimal
            }
        }
        BigDecimal quotient = a.toBigDecimal(sx).divide(b.toBigDecimal(sy), scale, RoundingMode.HALF_UP);
        a.set(quotient.unscaledValue());
    }
}
