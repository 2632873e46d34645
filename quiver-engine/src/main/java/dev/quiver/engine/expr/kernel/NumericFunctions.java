package dev.quiver.engine.expr.kernel;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.expr.BinaryOperator;
import dev.quiver.engine.types.Decimal128;
import dev.quiver.engine.types.QuiverTypes;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/** Unary numeric functions: negation, ABS and ROUND, on integers, decimals and doubles. */
public final class NumericFunctions {
    private NumericFunctions() {}

    /** {@code -input}: {@code 0 - input}, so overflow and NULLs behave as in subtraction. */
    public static FieldVector negate(Operand input, ArrowType type, String display, int rows, BufferAllocator allocator) {
        Object zero = type instanceof ArrowType.FloatingPoint ? (Object) 0.0 : (Object) 0L;
        ArrowType zeroType = type instanceof ArrowType.FloatingPoint ? type : QuiverTypes.INT64;
        try (Operand zeroOperand = Operand.constant(zeroType, zero, rows)) {
            return ArithmeticKernels.evaluate(BinaryOperator.MINUS, zeroOperand, input, type, display, rows, allocator);
        }
    }

    public static FieldVector abs(Operand input, ArrowType type, String display, int rows, BufferAllocator allocator) {
        if (input.isNullConstant()) {
            return Vectors.constant(type, null, rows, allocator);
        }
        if (type instanceof ArrowType.FloatingPoint) {
            double[] values = Numeric.decodeDoubles(input);
            FieldVector out = Vectors.allocate(type, rows, allocator);
            ArrowBuf data = out.getDataBuffer();
            for (int i = 0; i < rows; i++) {
                data.setDouble((long) i * 8, Math.abs(values[i]));
            }
            Validity.and(out, rows, input);
            out.setValueCount(rows);
            return out;
        }
        // |x| is x where x >= 0 and -x elsewhere; computing -x everywhere reuses the exact, overflow-checked subtraction
        try (FieldVector negated = negate(input, type, display, rows, allocator);
                FieldVector original = CastKernels.cast(input, type, display, rows, allocator)) {
            FieldVector out = original.getField().createVector(allocator);
            try {
                out.allocateNew();
                for (int i = 0; i < rows; i++) {
                    boolean negative = !original.isNull(i) && signum(original, i) < 0;
                    out.copyFromSafe(i, i, negative ? negated : original);
                }
                out.setValueCount(rows);
                return out;
            } catch (RuntimeException e) {
                out.close();
                throw e;
            }
        }
    }

    private static int signum(FieldVector vector, int i) {
        ArrowBuf data = vector.getDataBuffer();
        int width = vector.getField().getType() instanceof ArrowType.Decimal ? 16
                : ((ArrowType.Int) vector.getField().getType()).getBitWidth() / 8;
        return switch (width) {
            case 4 -> Integer.signum(data.getInt((long) i * 4));
            case 8 -> Long.signum(data.getLong((long) i * 8));
            default -> Long.signum(data.getLong((long) i * 16 + 8)) < 0 ? -1 : 1;
        };
    }

    /** ROUND(input, digits) HALF_UP, producing {@code type}; digits may be negative. */
    public static FieldVector round(Operand input, int digits, ArrowType type, String display, int rows, BufferAllocator allocator) {
        if (input.isNullConstant()) {
            return Vectors.constant(type, null, rows, allocator);
        }
        if (type instanceof ArrowType.FloatingPoint) {
            double[] values = Numeric.decodeDoubles(input);
            double factor = Math.pow(10, digits);
            FieldVector out = Vectors.allocate(type, rows, allocator);
            ArrowBuf data = out.getDataBuffer();
            for (int i = 0; i < rows; i++) {
                double v = values[i];
                double rounded = Math.floor(Math.abs(v) * factor + 0.5) / factor;
                data.setDouble((long) i * 8, Math.copySign(rounded, v));
            }
            Validity.and(out, rows, input);
            out.setValueCount(rows);
            return out;
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
            Decimal128 scratch = new Decimal128();
            ArrowBuf data = out.getDataBuffer();
            for (int i = 0; i < rows; i++) {
                value.set(high[i], low[i]);
                if (digits < from) {
                    // drop digits below 10^-digits, HALF_UP, then return to the input scale
                    int drop = from - digits;
                    if (drop > 38) {
                        value.set(0);
                    } else {
                        value.rescale(from, from - drop, scratch).scaleUp(drop);
                    }
                }
                value.rescale(from, resultScale, scratch);
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
        if (type instanceof ArrowType.Decimal) {
            if (type.equals(wide)) {
                return out;
            }
            try (Operand widened = Operand.of(wide, out, rows)) {
                return CastKernels.cast(widened, type, display, rows, allocator);
            }
        }
        if (type instanceof ArrowType.Int) {
            try (FieldVector owned = out) {
                return CastKernels.decimalToInteger((org.apache.arrow.vector.DecimalVector) owned, resultScale, type, display, rows, allocator);
            }
        }
        out.close();
        throw new QuiverException(ErrorCode.NOT_SUPPORTED, "ROUND producing " + QuiverTypes.sqlName(type) + ": " + display);
    }

    /** The scale argument of ROUND as a constant. */
    public static int constantInt(Operand operand, String display) {
        if (!operand.isConstant() || operand.constant() == null) {
            throw new QuiverException(ErrorCode.NOT_SUPPORTED, "ROUND needs a constant number of digits: " + display);
        }
        return ((Number) operand.constant()).intValue();
    }
}
