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

/** Negation and abs on integers, decimals and doubles. */
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

    /** A constant INTEGER argument (the digits of round); NOT_SUPPORTED when it varies by row. */
    public static int constantInt(Operand operand, String display) {
        if (!operand.isConstant() || operand.constant() == null) {
            throw new QuiverException(ErrorCode.NOT_SUPPORTED, "The number of digits must be a constant: " + display);
        }
        return ((Number) operand.constant()).intValue();
    }
}
