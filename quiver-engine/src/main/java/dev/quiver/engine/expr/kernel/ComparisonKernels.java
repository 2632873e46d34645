package dev.quiver.engine.expr.kernel;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.expr.BinaryOperator;
import dev.quiver.engine.types.Decimal128;
import dev.quiver.engine.types.QuiverTypes;
import java.nio.charset.StandardCharsets;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.util.ByteFunctionHelpers;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * Comparisons {@code = <> < <= > >=} and {@code IS [NOT] DISTINCT FROM} on every type: integers,
 * dates, timestamps and decimals of any scales compare exactly at their common scale; a DOUBLE on
 * either side compares as doubles; VARCHAR compares UTF-8 bytes (code point order). A column
 * compared with a constant reads the column's buffer directly.
 */
public final class ComparisonKernels {
    private ComparisonKernels() {}

    public static FieldVector compare(BinaryOperator op, Operand left, Operand right, int rows, BufferAllocator allocator) {
        boolean distinctOp = op == BinaryOperator.IS_DISTINCT_FROM || op == BinaryOperator.IS_NOT_DISTINCT_FROM;
        BitVector out = (BitVector) Vectors.allocate(QuiverTypes.BOOLEAN, rows, allocator);
        try {
            if (left.isNullConstant() || right.isNullConstant() || left.type() instanceof ArrowType.Null
                    || right.type() instanceof ArrowType.Null) {
                if (distinctOp) {
                    nullDistinct(op, left, right, rows, out);
                }
                out.setValueCount(rows);
                return out;
            }
            BinaryOperator valueOp = distinctOp ? BinaryOperator.EQ : op;
            ArrowBuf bits = out.getDataBuffer();
            if (left.type() instanceof ArrowType.Utf8 || right.type() instanceof ArrowType.Utf8) {
                strings(valueOp, left, right, rows, bits);
            } else if (left.type() instanceof ArrowType.FloatingPoint || right.type() instanceof ArrowType.FloatingPoint) {
                doubles(valueOp, Numeric.decodeDoubles(left), Numeric.decodeDoubles(right), rows, bits);
            } else if (Numeric.isLongDomain(left.type()) && Numeric.isLongDomain(right.type())) {
                numbers(valueOp, left, right, rows, bits);
            } else {
                throw new QuiverException(ErrorCode.TYPE_MISMATCH, "Cannot compare " + QuiverTypes.sqlName(left.type()) + " with "
                        + QuiverTypes.sqlName(right.type()));
            }
            if (distinctOp) {
                finishDistinct(op, left, right, rows, out);
            } else {
                Validity.and(out, rows, left, right);
            }
            out.setValueCount(rows);
            return out;
        } catch (RuntimeException e) {
            out.close();
            throw e;
        }
    }

    /** Whether {@code cmp} (negative, zero, positive) satisfies {@code op}. */
    static boolean test(BinaryOperator op, int cmp) {
        return switch (op) {
            case EQ -> cmp == 0;
            case NOT_EQ -> cmp != 0;
            case LT -> cmp < 0;
            case LT_EQ -> cmp <= 0;
            case GT -> cmp > 0;
            case GT_EQ -> cmp >= 0;
            default -> throw new IllegalArgumentException("not a comparison: " + op);
        };
    }

    /** The operator with its operands swapped: {@code c < x} is {@code x > c}. */
    public static BinaryOperator flip(BinaryOperator op) {
        return switch (op) {
            case LT -> BinaryOperator.GT;
            case LT_EQ -> BinaryOperator.GT_EQ;
            case GT -> BinaryOperator.LT;
            case GT_EQ -> BinaryOperator.LT_EQ;
            default -> op;
        };
    }

    private static void numbers(BinaryOperator op, Operand left, Operand right, int rows, ArrowBuf bits) {
        if (right.isConstant() && !left.isConstant() && scalar(op, left, right, rows, bits)) {
            return;
        }
        if (left.isConstant() && !right.isConstant() && scalar(flip(op), right, left, rows, bits)) {
            return;
        }
        if (!left.isConstant() && !right.isConstant() && columns(op, left, right, rows, bits)) {
            return;
        }
        int sx = Numeric.scale(left.type());
        int sy = Numeric.scale(right.type());
        int common = Math.max(sx, sy);
        long[] x = Numeric.decodeLongs(left);
        long[] y = Numeric.decodeLongs(right);
        if (x != null && y != null) {
            try {
                Numeric.scaleUp(x, sx, common);
                Numeric.scaleUp(y, sy, common);
                longs(op, x, y, rows, bits);
                return;
            } catch (ArithmeticException e) {
                // scaling overflowed 64 bits: compare in 128
            }
        }
        long[] xHigh = new long[rows];
        long[] xLow = new long[rows];
        long[] yHigh = new long[rows];
        long[] yLow = new long[rows];
        Numeric.decode128(left, xHigh, xLow);
        Numeric.decode128(right, yHigh, yLow);
        Decimal128 a = new Decimal128();
        Decimal128 b = new Decimal128();
        Decimal128 scratch = new Decimal128();
        for (int w = 0; w < Bitmaps.words(rows); w++) {
            long word = 0;
            int end = Math.min(rows, (w + 1) << 6);
            for (int i = w << 6; i < end; i++) {
                int cmp;
                try {
                    cmp = a.set(xHigh[i], xLow[i]).rescale(sx, common, scratch).compareTo(b.set(yHigh[i], yLow[i]).rescale(sy, common, scratch));
                } catch (ArithmeticException e) {
                    // a value scaled beyond 128 bits: rare enough to compare exactly as BigDecimal
                    cmp = a.set(xHigh[i], xLow[i]).toBigDecimal(sx).compareTo(b.set(yHigh[i], yLow[i]).toBigDecimal(sy));
                }
                if (test(op, cmp)) {
                    word |= 1L << (i & 63);
                }
            }
            Bitmaps.setWord(bits, w, word, rows);
        }
    }

    /** {@code vector op constant} straight off the vector's buffer; false if this shape has no fast path. */
    private static boolean scalar(BinaryOperator op, Operand vectorSide, Operand constantSide, int rows, ArrowBuf bits) {
        FieldVector vector = vectorSide.vector();
        int width = LongRange.directWidth(vector, vectorSide.type());
        if (width == 0 || vector.getDataBuffer().capacity() < (long) rows * width) {
            return false;
        }
        LongRange range = LongRange.of(op, vectorSide.type(), constantSide.constant(), constantSide.type()).orElse(null);
        if (range == null) {
            return false;
        }
        if (!range.none()) {
            inRange(vector.getDataBuffer().memoryAddress(), width, range.low(), range.high(), range.outside(), rows, bits);
        }
        // a range that passes nothing leaves every bit clear
        return true;
    }

    /**
     * Sets bit {@code i} when value {@code i} (of {@code width} bytes at {@code address}) lies in
     * {@code [low, high]}, or outside it when {@code outside}. The caller has checked that the
     * {@code rows} values lie inside the buffer, so the loops read memory without a check per
     * value (ArrowBuf's checks cost more than the comparison), and test the range branch-free as
     * one unsigned comparison.
     */
    private static void inRange(long address, int width, long low, long high, boolean outside, int rows, ArrowBuf bits) {
        long span = (high - low) + Long.MIN_VALUE;
        long flip = outside ? -1L : 0L;
        for (int w = 0; w < Bitmaps.words(rows); w++) {
            int base = w << 6;
            int end = Math.min(rows, base + 64);
            long word = 0;
            switch (width) {
                case 4 -> {
                    for (int i = base; i < end; i++) {
                        long v = MemoryUtil.getInt(address + ((long) i << 2));
                        word |= ((v - low) + Long.MIN_VALUE <= span ? 1L : 0L) << (i - base);
                    }
                }
                case 8 -> {
                    for (int i = base; i < end; i++) {
                        long v = MemoryUtil.getLong(address + ((long) i << 3));
                        word |= ((v - low) + Long.MIN_VALUE <= span ? 1L : 0L) << (i - base);
                    }
                }
                default -> {
                    for (int i = base; i < end; i++) {
                        long v = MemoryUtil.getLong(address + ((long) i << 4));
                        word |= ((v - low) + Long.MIN_VALUE <= span ? 1L : 0L) << (i - base);
                    }
                }
            }
            Bitmaps.setWord(bits, w, word ^ flip, rows);
        }
    }

    /**
     * {@code x op y} for two columns of one {@linkplain LongRange#directWidth directly read} width and one
     * scale, straight off their buffers; false if this shape has no fast path.
     */
    private static boolean columns(BinaryOperator op, Operand left, Operand right, int rows, ArrowBuf bits) {
        FieldVector x = left.vector();
        FieldVector y = right.vector();
        int width = LongRange.directWidth(x, left.type());
        if (width == 0 || width != LongRange.directWidth(y, right.type()) || Numeric.scale(left.type()) != Numeric.scale(right.type())
                || x.getDataBuffer().capacity() < (long) rows * width || y.getDataBuffer().capacity() < (long) rows * width) {
            return false;
        }
        int shift = Integer.numberOfTrailingZeros(width);
        long xa = x.getDataBuffer().memoryAddress();
        long ya = y.getDataBuffer().memoryAddress();
        for (int w = 0; w < Bitmaps.words(rows); w++) {
            int base = w << 6;
            int end = Math.min(rows, base + 64);
            long word = 0;
            for (int i = base; i < end; i++) {
                long at = (long) i << shift;
                long a = width == 4 ? MemoryUtil.getInt(xa + at) : MemoryUtil.getLong(xa + at);
                long b = width == 4 ? MemoryUtil.getInt(ya + at) : MemoryUtil.getLong(ya + at);
                word |= (test(op, Long.compare(a, b)) ? 1L : 0L) << (i - base);
            }
            Bitmaps.setWord(bits, w, word, rows);
        }
        return true;
    }

    private static void longs(BinaryOperator op, long[] x, long[] y, int rows, ArrowBuf bits) {
        for (int w = 0; w < Bitmaps.words(rows); w++) {
            long word = 0;
            int base = w << 6;
            int end = Math.min(rows, base + 64);
            for (int i = base; i < end; i++) {
                word |= (test(op, Long.compare(x[i], y[i])) ? 1L : 0L) << (i - base);
            }
            Bitmaps.setWord(bits, w, word, rows);
        }
    }

    private static void doubles(BinaryOperator op, double[] x, double[] y, int rows, ArrowBuf bits) {
        for (int w = 0; w < Bitmaps.words(rows); w++) {
            long word = 0;
            int base = w << 6;
            int end = Math.min(rows, base + 64);
            for (int i = base; i < end; i++) {
                // SQL order of doubles: -0.0 equals 0.0 (==), NaN equals NaN and is above every number (Double.compare)
                word |= (test(op, x[i] == y[i] ? 0 : Double.compare(x[i], y[i])) ? 1L : 0L) << (i - base);
            }
            Bitmaps.setWord(bits, w, word, rows);
        }
    }

    private static void strings(BinaryOperator op, Operand left, Operand right, int rows, ArrowBuf bits) {
        if (left.isConstant() && right.isConstant()) {
            int cmp = compareText(left.constant().toString(), right.constant().toString());
            if (test(op, cmp)) {
                Vectors.setAllBits(bits, rows);
            }
            return;
        }
        if (left.isConstant()) {
            strings(flip(op), right, left, rows, bits);
            return;
        }
        BaseVariableWidthVector x = (BaseVariableWidthVector) left.vector();
        ArrowBuf xOffsets = x.getOffsetBuffer();
        ArrowBuf xData = x.getDataBuffer();
        if (right.isConstant()) {
            byte[] c = right.constant().toString().getBytes(StandardCharsets.UTF_8);
            for (int i = 0; i < rows; i++) {
                int start = xOffsets.getInt((long) i * 4);
                int end = xOffsets.getInt((long) i * 4 + 4);
                int cmp = op == BinaryOperator.EQ || op == BinaryOperator.NOT_EQ
                        ? (end - start != c.length ? 1 : ByteFunctionHelpers.compare(xData, start, end, c, 0, c.length))
                        : ByteFunctionHelpers.compare(xData, start, end, c, 0, c.length);
                if (test(op, cmp)) {
                    Bitmaps.set(bits, i);
                }
            }
            return;
        }
        BaseVariableWidthVector y = (BaseVariableWidthVector) right.vector();
        ArrowBuf yOffsets = y.getOffsetBuffer();
        ArrowBuf yData = y.getDataBuffer();
        for (int i = 0; i < rows; i++) {
            int cmp = ByteFunctionHelpers.compare(xData, xOffsets.getInt((long) i * 4), xOffsets.getInt((long) i * 4 + 4),
                    yData, yOffsets.getInt((long) i * 4), yOffsets.getInt((long) i * 4 + 4));
            if (test(op, cmp)) {
                Bitmaps.set(bits, i);
            }
        }
    }

    /** Compares two strings in UTF-8 byte order (which is code point order). */
    static int compareText(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }

    /** IS [NOT] DISTINCT FROM with a NULL constant on a side: the other side's IS [NOT] NULL. */
    private static void nullDistinct(BinaryOperator op, Operand left, Operand right, int rows, BitVector out) {
        ArrowBuf bits = out.getDataBuffer();
        for (int i = 0; i < rows; i++) {
            boolean same = left.isNull(i) == right.isNull(i);
            if (same == (op == BinaryOperator.IS_NOT_DISTINCT_FROM)) {
                Bitmaps.set(bits, i);
            }
        }
        Vectors.setAllBits(out.getValidityBuffer(), rows);
    }

    /** Turns equality bits into IS [NOT] DISTINCT FROM, where NULL equals NULL and the result is never NULL. */
    private static void finishDistinct(BinaryOperator op, Operand left, Operand right, int rows, BitVector out) {
        ArrowBuf bits = out.getDataBuffer();
        boolean nulls = left.hasNulls() || right.hasNulls();
        boolean negate = op == BinaryOperator.IS_DISTINCT_FROM;
        for (int i = 0; i < rows; i++) {
            boolean equal;
            if (nulls && (left.isNull(i) || right.isNull(i))) {
                equal = left.isNull(i) && right.isNull(i);
            } else {
                equal = Bitmaps.get(bits, i);
            }
            if (equal != negate) {
                Bitmaps.set(bits, i);
            } else {
                Bitmaps.clear(bits, i);
            }
        }
        Vectors.setAllBits(out.getValidityBuffer(), rows);
    }
}
