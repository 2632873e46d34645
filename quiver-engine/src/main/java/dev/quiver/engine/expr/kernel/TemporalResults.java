package dev.quiver.engine.expr.kernel;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.types.QuiverTypes;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * Result vectors of the date and time kernels: computed values written into a vector whose
 * validity is that of the inputs (NULL in, NULL out). A value that does not fit the result type
 * (a DATE beyond ±5.8 million years) is an error on a non-NULL row only.
 */
final class TemporalResults {
    private TemporalResults() {}

    /** {@code values} as a BIGINT, INTEGER, DATE or TIMESTAMP vector. */
    static FieldVector longs(long[] values, ArrowType type, String display, int rows, BufferAllocator allocator, Operand... inputs) {
        FieldVector out = Vectors.allocate(type, rows, allocator);
        try {
            Validity.and(out, rows, inputs);
            ArrowBuf data = out.getDataBuffer();
            boolean narrow = type instanceof ArrowType.Date || type instanceof ArrowType.Int i && i.getBitWidth() == 32;
            for (int i = 0; i < rows; i++) {
                long value = values[i];
                if (narrow) {
                    if (value != (int) value && !out.isNull(i)) {
                        throw outOfRange(type, display);
                    }
                    data.setInt((long) i * 4, (int) value);
                } else {
                    data.setLong((long) i * 8, value);
                }
            }
            out.setValueCount(rows);
            return out;
        } catch (RuntimeException e) {
            out.close();
            throw e;
        }
    }

    /** {@code values} as a DOUBLE vector. */
    static FieldVector doubles(double[] values, int rows, BufferAllocator allocator, Operand... inputs) {
        FieldVector out = Vectors.allocate(QuiverTypes.FLOAT64, rows, allocator);
        try {
            Validity.and(out, rows, inputs);
            ArrowBuf data = out.getDataBuffer();
            for (int i = 0; i < rows; i++) {
                data.setDouble((long) i * 8, values[i]);
            }
            out.setValueCount(rows);
            return out;
        } catch (RuntimeException e) {
            out.close();
            throw e;
        }
    }

    /** The values of a DATE or TIMESTAMP operand as microseconds since the epoch (a DATE at midnight). */
    static long[] micros(Operand input) {
        long[] values = Numeric.decodeLongs(input);
        if (input.type() instanceof ArrowType.Date) {
            for (int i = 0; i < values.length; i++) {
                values[i] *= DateKernels.MICROS_PER_DAY;
            }
        }
        return values;
    }

    static QuiverException outOfRange(ArrowType type, String display) {
        return new QuiverException(ErrorCode.NUMERIC_VALUE_OUT_OF_RANGE, QuiverTypes.sqlName(type) + " out of range in " + display);
    }
}
