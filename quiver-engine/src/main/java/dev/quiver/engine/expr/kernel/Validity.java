package dev.quiver.engine.expr.kernel;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.FieldVector;

/** Result validity from operand validity: NULL in, NULL out. */
public final class Validity {
    private Validity() {}

    /** Sets {@code out}'s validity to "every operand is non-NULL" (operands that are constants are non-NULL here). */
    public static void and(FieldVector out, int rows, Operand... operands) {
        ArrowBuf target = out.getValidityBuffer();
        boolean first = true;
        for (Operand operand : operands) {
            if (operand.isNullConstant()) {
                target.setZero(0, (rows + 7) >> 3);
                return;
            }
        }
        for (Operand operand : operands) {
            if (operand.isConstant()) {
                continue;
            }
            ArrowBuf source = operand.vector().getValidityBuffer();
            if (first) {
                Bitmaps.copy(target, source, rows);
                first = false;
            } else {
                Bitmaps.and(target, target, source, rows);
            }
        }
        if (first) {
            Vectors.setAllBits(target, rows);
        }
    }
}
