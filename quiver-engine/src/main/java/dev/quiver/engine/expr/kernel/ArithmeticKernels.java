package dev.quiver.engine.expr.kernel;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.expr.BinaryExpr;
import dev.quiver.engine.expr.BinaryOperator;
import dev.quiver.engine.types.QuiverTypes;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * {@code + - * / %} producing INTEGER, BIGINT or DOUBLE; DECIMAL results go to
 * {@link DecimalKernels}. Integer arithmetic is exact (overflow is an error) and divides toward
 * zero; division or modulo by zero fails for non-NULL rows only.
 */
public final class ArithmeticKernels {
    private ArithmeticKernels() {}

    public static FieldVector evaluate(BinaryExpr expr, VectorSchemaRoot batch, BufferAllocator allocator) {
        int rows = batch.getRowCount();
        try (Operand left = Operand.evaluate(expr.left(), batch, allocator);
                Operand right = Operand.evaluate(expr.right(), batch, allocator)) {
            return evaluate(expr.op(), left, right, expr.type(), expr.display(), rows, allocator);
        }
    }

    /** {@code left op right} as a vector of {@code type}; {@code display} names the expression in errors. */
    public static FieldVector evaluate(BinaryOperator op, Operand left, Operand right, ArrowType type, String display, int rows,
            BufferAllocator allocator) {
        if (left.isNullConstant() || right.isNullConstant() || left.type() instanceof ArrowType.Null
                || right.type() instanceof ArrowType.Null) {
            return Vectors.constant(type, null, rows, allocator);
        }
        if (type instanceof ArrowType.Decimal decimal) {
            return DecimalKernels.arithmetic(op, left, right, decimal, display, rows, allocator);
        }
        if (type instanceof ArrowType.FloatingPoint) {
            return doubles(op, left, right, type, display, rows, allocator);
        }
        if (type instanceof ArrowType.Int) {
            if (left.type() instanceof ArrowType.Decimal || right.type() instanceof ArrowType.Decimal
                    || left.type() instanceof ArrowType.FloatingPoint || right.type() instanceof ArrowType.FloatingPoint) {
                // an integer-typed result over non-integer operands: compute exactly as DECIMAL(38,0), then narrow
                try (FieldVector wide = evaluate(op, left, right, QuiverTypes.decimal(38, 0), display, rows, allocator)) {
                    return CastKernels.decimalToInteger((DecimalVector) wide, 0, type, display, rows, allocator);
                }
            }
            return longs(op, left, right, type, display, rows, allocator);
        }
        throw new QuiverException(ErrorCode.NOT_SUPPORTED, "arithmetic producing " + QuiverTypes.sqlName(type) + " is not supported: " + display);
    }

    private static FieldVector longs(BinaryOperator op, Operand left, Operand right, ArrowType type, String display, int rows,
            BufferAllocator allocator) {
        long[] x = Numeric.decodeLongs(left);
        long[] y = Numeric.decodeLongs(right);
        long[] result = new long[rows];
        try {
            switch (op) {
                case PLUS -> {
                    for (int i = 0; i < rows; i++) {
                        result[i] = Math.addExact(x[i], y[i]);
                    }
                }
                case MINUS -> {
                    for (int i = 0; i < rows; i++) {
                        result[i] = Math.subtractExact(x[i], y[i]);
                    }
                }
                case MULTIPLY -> {
                    for (int i = 0; i < rows; i++) {
                        result[i] = Math.multiplyExact(x[i], y[i]);
                    }
                }
                case DIVIDE, MODULO -> {
                    boolean divide = op == BinaryOperator.DIVIDE;
                    for (int i = 0; i < rows; i++) {
                        long divisor = y[i];
                        if (divisor == 0) {
                            checkDivisor(left, right, i, display);
                            continue;
                        }
                        if (divide) {
                            if (x[i] == Long.MIN_VALUE && divisor == -1) {
                                throw new ArithmeticException("overflow");
                            }
                            result[i] = x[i] / divisor;
                        } else {
                            result[i] = divisor == -1 ? 0 : x[i] % divisor;
                        }
                    }
                }
                default -> throw new IllegalArgumentException("not arithmetic: " + op);
            }
        } catch (ArithmeticException e) {
            throw outOfRange(type, display);
        }
        FieldVector out = Vectors.allocate(type, rows, allocator);
        try {
            writeLongs(result, out, type, display, rows);
            Validity.and(out, rows, left, right);
            out.setValueCount(rows);
            return out;
        } catch (RuntimeException e) {
            out.close();
            throw e;
        }
    }

    /** Fails with DIVISION_BY_ZERO unless row {@code i} is NULL on either side. */
    static void checkDivisor(Operand left, Operand right, int i, String display) {
        if (!left.isNull(i) && !right.isNull(i)) {
            throw new QuiverException(ErrorCode.DIVISION_BY_ZERO, "Division by zero in " + display);
        }
    }

    /** Writes longs into an INTEGER or BIGINT vector (checking the INTEGER range). */
    static void writeLongs(long[] values, FieldVector out, ArrowType type, String display, int rows) {
        ArrowBuf data = out.getDataBuffer();
        if (out instanceof IntVector || out instanceof DateDayVector) {
            for (int i = 0; i < rows; i++) {
                long v = values[i];
                if (v != (int) v) {
                    throw outOfRange(type, display);
                }
                data.setInt((long) i * 4, (int) v);
            }
        } else {
            for (int i = 0; i < rows; i++) {
                data.setLong((long) i * 8, values[i]);
            }
        }
    }

    private static FieldVector doubles(BinaryOperator op, Operand left, Operand right, ArrowType type, String display, int rows,
            BufferAllocator allocator) {
        double[] x = Numeric.decodeDoubles(left);
        double[] y = Numeric.decodeDoubles(right);
        FieldVector out = Vectors.allocate(type, rows, allocator);
        try {
            ArrowBuf data = out.getDataBuffer();
            switch (op) {
                case PLUS -> {
                    for (int i = 0; i < rows; i++) {
                        data.setDouble((long) i * 8, x[i] + y[i]);
                    }
                }
                case MINUS -> {
                    for (int i = 0; i < rows; i++) {
                        data.setDouble((long) i * 8, x[i] - y[i]);
                    }
                }
                case MULTIPLY -> {
                    for (int i = 0; i < rows; i++) {
                        data.setDouble((long) i * 8, x[i] * y[i]);
                    }
                }
                case DIVIDE, MODULO -> {
                    boolean divide = op == BinaryOperator.DIVIDE;
                    for (int i = 0; i < rows; i++) {
                        if (y[i] == 0) {
                            checkDivisor(left, right, i, display);
                            continue;
                        }
                        data.setDouble((long) i * 8, divide ? x[i] / y[i] : x[i] % y[i]);
                    }
                }
                default -> throw new IllegalArgumentException("not arithmetic: " + op);
            }
            Validity.and(out, rows, left, right);
            out.setValueCount(rows);
            return out;
        } catch (RuntimeException e) {
            out.close();
            throw e;
        }
    }

    static QuiverException outOfRange(ArrowType type, String display) {
        return new QuiverException(ErrorCode.NUMERIC_VALUE_OUT_OF_RANGE,
                "Value out of range for " + QuiverTypes.sqlName(type) + " in " + display);
    }
}
