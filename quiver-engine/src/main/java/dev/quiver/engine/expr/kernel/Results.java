package dev.quiver.engine.expr.kernel;

import dev.quiver.engine.types.QuiverTypes;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * Fixed-width results of strict kernels from the primitive arrays they computed: a row is NULL
 * where any of the operands is (values computed for those rows are ignored).
 */
public final class Results {
    private Results() {}

    /** An INTEGER or BIGINT vector; a value that does not fit INTEGER is NUMERIC_VALUE_OUT_OF_RANGE. */
    public static FieldVector longs(long[] values, ArrowType type, String display, int rows, BufferAllocator allocator, Operand... operands) {
        FieldVector out = Vectors.allocate(type, rows, allocator);
        try {
            Validity.and(out, rows, operands);
            for (int i = 0; i < rows; i++) {
                if (out.isNull(i)) {
                    values[i] = 0;
                }
            }
            ArithmeticKernels.writeLongs(values, out, type, display, rows);
            out.setValueCount(rows);
            return out;
        } catch (RuntimeException e) {
            out.close();
            throw e;
        }
    }

    public static FieldVector doubles(double[] values, int rows, BufferAllocator allocator, Operand... operands) {
        FieldVector out = Vectors.allocate(QuiverTypes.FLOAT64, rows, allocator);
        ArrowBuf data = out.getDataBuffer();
        for (int i = 0; i < rows; i++) {
            data.setDouble((long) i * 8, values[i]);
        }
        Validity.and(out, rows, operands);
        out.setValueCount(rows);
        return out;
    }

    public static FieldVector booleans(boolean[] values, int rows, BufferAllocator allocator, Operand... operands) {
        FieldVector out = Vectors.allocate(QuiverTypes.BOOLEAN, rows, allocator);
        ArrowBuf bits = out.getDataBuffer();
        for (int i = 0; i < rows; i++) {
            if (values[i]) {
                Bitmaps.set(bits, i);
            }
        }
        Validity.and(out, rows, operands);
        out.setValueCount(rows);
        return out;
    }

    /** Whether row {@code row} of any operand is NULL. */
    public static boolean anyNull(int row, Operand... operands) {
        for (Operand operand : operands) {
            if (operand.isNull(row)) {
                return true;
            }
        }
        return false;
    }
}
