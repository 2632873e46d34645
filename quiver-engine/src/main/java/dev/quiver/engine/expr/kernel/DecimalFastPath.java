package dev.quiver.engine.expr.kernel;

import dev.quiver.engine.expr.BinaryOperator;
import dev.quiver.engine.types.Decimal128;
import dev.quiver.engine.types.DecimalMath;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * The common case of decimal {@code + - *} in one pass over the Arrow buffers: operands that are
 * decimal columns without NULLs or constants, every value and result within 64 bits, and a result
 * scale that needs no rounding. It reads the operands' memory directly (bounds checked once per
 * batch), keeps a constant in a local instead of an array, and writes the result buffer directly.
 * Anything else, or an intermediate that overflows 64 bits, returns null and the caller takes the
 * general path, which gives the same values.
 */
final class DecimalFastPath {
    private DecimalFastPath() {}

    /** The result vector, or null when this path does not apply. */
    static FieldVector arithmetic(BinaryOperator op, Operand left, Operand right, ArrowType.Decimal type, int rows,
            BufferAllocator allocator) {
        if (rows == 0 || (op != BinaryOperator.PLUS && op != BinaryOperator.MINUS && op != BinaryOperator.MULTIPLY)) {
            return null;
        }
        Side x = Side.of(left, rows);
        Side y = Side.of(right, rows);
        if (x == null || y == null || (x.constant && y.constant)) {
            return null;
        }
        int scale = type.getScale();
        long fx = 1;
        long fy = 1;
        if (op == BinaryOperator.MULTIPLY) {
            if (x.scale + y.scale != scale) {
                return null;
            }
        } else {
            if (x.scale > scale || y.scale > scale || scale - x.scale > 18 || scale - y.scale > 18) {
                return null;
            }
            fx = DecimalMath.powerOfTen(scale - x.scale);
            fy = DecimalMath.powerOfTen(scale - y.scale);
        }
        FieldVector out = Vectors.allocate(type, rows, allocator);
        try {
            ArrowBuf data = out.getDataBuffer();
            if (data.capacity() < (long) rows * 16) {
                out.close();
                return null;
            }
            if (!compute(op, x, y, fx, fy, type.getPrecision(), rows, data.memoryAddress())) {
                out.close();
                return null;
            }
            out.getValidityBuffer().setOne(0, (rows + 7) / 8);
            out.setValueCount(rows);
            return out;
        } catch (RuntimeException e) {
            out.close();
            throw e;
        }
    }

    /** Writes every result; false on a 64-bit overflow or a result beyond the precision (the general path decides). */
    private static boolean compute(BinaryOperator op, Side x, Side y, long fx, long fy, int precision, int rows, long out) {
        // the flags are loop-invariant, so the JIT splits each loop into its constant/column variants
        boolean xc = x.constant;
        boolean yc = y.constant;
        long xv = x.value;
        long yv = y.value;
        long xa = x.address;
        long ya = y.address;
        long limit = DecimalMath.powerOfTen(Math.min(precision, 18));
        try {
            switch (op) {
                case MULTIPLY -> {
                    for (int i = 0; i < rows; i++) {
                        long a = xc ? xv : MemoryUtil.getLong(xa + (long) i * 16);
                        long b = yc ? yv : MemoryUtil.getLong(ya + (long) i * 16);
                        long v = Math.multiplyExact(a, b);
                        if (precision <= 18 && (v >= limit || v <= -limit)) {
                            return false;
                        }
                        write(out, i, v);
                    }
                }
                case PLUS -> {
                    for (int i = 0; i < rows; i++) {
                        long a = xc ? xv : MemoryUtil.getLong(xa + (long) i * 16);
                        long b = yc ? yv : MemoryUtil.getLong(ya + (long) i * 16);
                        long v = Math.addExact(Math.multiplyExact(a, fx), Math.multiplyExact(b, fy));
                        if (precision <= 18 && (v >= limit || v <= -limit)) {
                            return false;
                        }
                        write(out, i, v);
                    }
                }
                default -> {
                    for (int i = 0; i < rows; i++) {
                        long a = xc ? xv : MemoryUtil.getLong(xa + (long) i * 16);
                        long b = yc ? yv : MemoryUtil.getLong(ya + (long) i * 16);
                        long v = Math.subtractExact(Math.multiplyExact(a, fx), Math.multiplyExact(b, fy));
                        if (precision <= 18 && (v >= limit || v <= -limit)) {
                            return false;
                        }
                        write(out, i, v);
                    }
                }
            }
            return true;
        } catch (ArithmeticException e) {
            return false;
        }
    }

    private static void write(long out, int row, long value) {
        long address = out + (long) row * 16;
        MemoryUtil.putLong(address, value);
        MemoryUtil.putLong(address + 8, value >> 63);
    }

    /** One operand: a constant, or the address of a decimal column's 16-byte values. */
    private static final class Side {
        final boolean constant;
        final long value;
        final long address;
        final int scale;

        private Side(boolean constant, long value, long address, int scale) {
            this.constant = constant;
            this.value = value;
            this.address = address;
            this.scale = scale;
        }

        long value(int row) {
            return constant ? value : MemoryUtil.getLong(address + (long) row * 16);
        }

        /** The side, or null when a value may need more than 64 bits or there are NULLs. */
        static Side of(Operand operand, int rows) {
            int scale = Numeric.scale(operand.type());
            if (operand.isConstant()) {
                if (operand.constant() == null || !(operand.type() instanceof ArrowType.Decimal || operand.type() instanceof ArrowType.Int)) {
                    return null;
                }
                Decimal128 constant = Numeric.constant128(operand.constant(), operand.type());
                return constant.fitsInLong() ? new Side(true, constant.low(), 0, scale) : null;
            }
            if (!(operand.vector() instanceof DecimalVector vector) || vector.getNullCount() > 0 || vector.getValueCount() < rows) {
                return null;
            }
            ArrowBuf data = vector.getDataBuffer();
            if (data.capacity() < (long) rows * 16) {
                return null;
            }
            long address = data.memoryAddress();
            if (vector.getPrecision() > 18) {
                // wide type: usable only if every value's high word is its low word's sign
                for (int i = 0; i < rows; i++) {
                    long at = address + (long) i * 16;
                    if (MemoryUtil.getLong(at + 8) != (MemoryUtil.getLong(at) >> 63)) {
                        return null;
                    }
                }
            }
            return new Side(false, 0, address, scale);
        }
    }
}
