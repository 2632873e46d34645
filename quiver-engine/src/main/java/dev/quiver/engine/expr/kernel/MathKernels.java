package dev.quiver.engine.expr.kernel;

import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleBinaryOperator;
import java.util.function.DoubleUnaryOperator;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * DOUBLE-valued math (sqrt, ln, trigonometry, power, ...) over any numeric operands, sign, and
 * random. Out-of-domain arguments give NaN or an infinity, as in DuckDB (PostgreSQL raises errors
 * instead; docs/sql.md).
 */
public final class MathKernels {
    private MathKernels() {}

    /** {@code f(x)} for every row, computed on doubles. */
    public static FieldVector map(DoubleUnaryOperator f, Operand x, int rows, BufferAllocator allocator) {
        double[] values = Numeric.decodeDoubles(x);
        for (int i = 0; i < rows; i++) {
            values[i] = f.applyAsDouble(values[i]);
        }
        return Results.doubles(values, rows, allocator, x);
    }

    /** {@code f(x, y)} for every row, computed on doubles. */
    public static FieldVector map(DoubleBinaryOperator f, Operand x, Operand y, int rows, BufferAllocator allocator) {
        double[] left = Numeric.decodeDoubles(x);
        double[] right = Numeric.decodeDoubles(y);
        for (int i = 0; i < rows; i++) {
            left[i] = f.applyAsDouble(left[i], right[i]);
        }
        return Results.doubles(left, rows, allocator, x, y);
    }

    /** -1, 0 or 1 (0 for NaN and for -0.0, as in DuckDB). */
    public static FieldVector sign(Operand x, ArrowType type, String display, int rows, BufferAllocator allocator) {
        long[] signs = new long[rows];
        if (x.type() instanceof ArrowType.FloatingPoint) {
            double[] values = Numeric.decodeDoubles(x);
            for (int i = 0; i < rows; i++) {
                signs[i] = values[i] > 0 ? 1 : values[i] < 0 ? -1 : 0;
            }
        } else {
            long[] high = new long[rows];
            long[] low = new long[rows];
            Numeric.decode128(x, high, low);
            for (int i = 0; i < rows; i++) {
                signs[i] = high[i] < 0 ? -1 : high[i] == 0 && low[i] == 0 ? 0 : 1;
            }
        }
        return Results.longs(signs, type, display, rows, allocator, x);
    }

    /** log(base, x) = ln(x) / ln(base). */
    public static double log(double base, double x) {
        return Math.log(x) / Math.log(base);
    }

    public static double log2(double x) {
        return Math.log(x) / Math.log(2);
    }

    public static double cot(double x) {
        return 1 / Math.tan(x);
    }

    /** A uniformly random double in [0, 1) per row. */
    public static FieldVector random(int rows, BufferAllocator allocator) {
        double[] values = new double[rows];
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int i = 0; i < rows; i++) {
            values[i] = random.nextDouble();
        }
        return Results.doubles(values, rows, allocator);
    }

}
