package dev.quiver.engine.expr.kernel;

import dev.quiver.engine.expr.BinaryExpr;
import dev.quiver.engine.expr.BinaryOperator;
import dev.quiver.engine.types.QuiverTypes;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * AND, OR, NOT and IS [NOT] NULL, 64 rows at a time on the value and validity bitmaps, with
 * SQL's three-valued logic: FALSE AND NULL is FALSE, TRUE OR NULL is TRUE, otherwise NULL in
 * gives NULL out.
 */
public final class LogicalKernels {
    private LogicalKernels() {}

    public static FieldVector andOr(BinaryOperator op, Operand left, Operand right, int rows, BufferAllocator allocator) {
        boolean and = op == BinaryOperator.AND;
        BitVector out = (BitVector) Vectors.allocate(QuiverTypes.BOOLEAN, rows, allocator);
        ArrowBuf values = out.getDataBuffer();
        ArrowBuf validity = out.getValidityBuffer();
        for (int w = 0; w < Bitmaps.words(rows); w++) {
            long a = values(left, w, rows);
            long va = validity(left, w, rows);
            long b = values(right, w, rows);
            long vb = validity(right, w, rows);
            long trueA = a & va;
            long trueB = b & vb;
            long value;
            long valid;
            if (and) {
                value = trueA & trueB;
                valid = (va & vb) | (va & ~a) | (vb & ~b);
            } else {
                value = trueA | trueB;
                valid = (va & vb) | trueA | trueB;
            }
            Bitmaps.setWord(values, w, value & valid, rows);
            Bitmaps.setWord(validity, w, valid, rows);
        }
        out.setValueCount(rows);
        return out;
    }

    /**
     * AND/OR evaluating the right side only where the left side leaves the result open: not at
     * all when the left decides every row (all FALSE for AND, all TRUE for OR), and only on the
     * open rows when the right side could fail (a division, a narrowing cast), so that
     * {@code x <> 0 AND y / x > 1} never divides by zero.
     */
    public static FieldVector shortCircuit(BinaryExpr expr, VectorSchemaRoot batch, BufferAllocator allocator) {
        int rows = batch.getRowCount();
        boolean and = expr.op() == BinaryOperator.AND;
        try (Operand left = Operand.evaluate(expr.left(), batch, allocator)) {
            int count = rows;
            for (int w = 0; w < Bitmaps.words(rows); w++) {
                long values = values(left, w, rows);
                long decided = validity(left, w, rows) & (and ? ~values : values);
                int valid = rows - (w << 6);
                count -= Long.bitCount(valid >= 64 ? decided : decided & ((1L << valid) - 1));
            }
            if (count == 0) {
                // the right side cannot change any row: it stands in as the identity (TRUE for AND, FALSE for OR)
                try (Operand identity = Operand.constant(QuiverTypes.BOOLEAN, and, rows)) {
                    return andOr(expr.op(), left, identity, rows, allocator);
                }
            }
            if (count == rows || SelectionKernels.isSafe(expr.right())) {
                try (Operand right = Operand.evaluate(expr.right(), batch, allocator)) {
                    return andOr(expr.op(), left, right, rows, allocator);
                }
            }
            boolean[] open = new boolean[rows];
            for (int i = 0; i < rows; i++) {
                open[i] = left.isNull(i) || leftValue(left, i) == and;
            }
            FieldVector rightVector = SelectionKernels.evaluateWhere(expr.right(), open, count, batch, allocator);
            try (Operand right = Operand.of(QuiverTypes.BOOLEAN, rightVector, rows)) {
                return andOr(expr.op(), left, right, rows, allocator);
            }
        }
    }

    private static boolean leftValue(Operand operand, int i) {
        return operand.isConstant() ? Boolean.TRUE.equals(operand.constant()) : ((BitVector) operand.vector()).get(i) != 0;
    }

    public static FieldVector not(Operand input, int rows, BufferAllocator allocator) {
        BitVector out = (BitVector) Vectors.allocate(QuiverTypes.BOOLEAN, rows, allocator);
        for (int w = 0; w < Bitmaps.words(rows); w++) {
            long valid = validity(input, w, rows);
            Bitmaps.setWord(out.getDataBuffer(), w, ~values(input, w, rows) & valid, rows);
            Bitmaps.setWord(out.getValidityBuffer(), w, valid, rows);
        }
        out.setValueCount(rows);
        return out;
    }

    public static FieldVector isNull(Operand input, boolean negated, int rows, BufferAllocator allocator) {
        BitVector out = (BitVector) Vectors.allocate(QuiverTypes.BOOLEAN, rows, allocator);
        for (int w = 0; w < Bitmaps.words(rows); w++) {
            long valid = validity(input, w, rows);
            Bitmaps.setWord(out.getDataBuffer(), w, negated ? valid : ~valid, rows);
        }
        Vectors.setAllBits(out.getValidityBuffer(), rows);
        out.setValueCount(rows);
        return out;
    }

    /** Word {@code w} of a BOOLEAN operand's values (a constant repeats). */
    static long values(Operand operand, int w, int rows) {
        if (operand.isConstant()) {
            return Boolean.TRUE.equals(operand.constant()) ? -1L : 0L;
        }
        return Bitmaps.word(operand.vector().getDataBuffer(), w, rows);
    }

    /** Word {@code w} of an operand's validity (a constant repeats). */
    static long validity(Operand operand, int w, int rows) {
        if (operand.isConstant()) {
            return operand.constant() == null ? 0L : -1L;
        }
        FieldVector vector = operand.vector();
        if (vector instanceof org.apache.arrow.vector.NullVector) {
            return 0L;
        }
        if (vector.getValidityBuffer() == null || vector.getValidityBuffer().capacity() == 0) {
            return vector.getNullCount() == 0 ? -1L : 0L;
        }
        return Bitmaps.word(vector.getValidityBuffer(), w, rows);
    }
}
