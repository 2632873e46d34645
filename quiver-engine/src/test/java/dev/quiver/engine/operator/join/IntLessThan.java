package dev.quiver.engine.operator.join;

import dev.quiver.engine.expr.ColumnExpr;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.types.QuiverTypes;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * Test double for a residual join filter, {@code column[left] < column[right]} over INTEGER columns
 * (NULL if either is NULL), so join tests do not depend on the expression evaluator.
 */
record IntLessThan(int left, int right) implements PhysicalExpr {
    @Override
    public ArrowType type() {
        return QuiverTypes.BOOLEAN;
    }

    @Override
    public boolean nullable() {
        return true;
    }

    @Override
    public FieldVector evaluate(VectorSchemaRoot batch, BufferAllocator allocator) {
        IntVector a = (IntVector) batch.getVector(left);
        IntVector b = (IntVector) batch.getVector(right);
        int rows = batch.getRowCount();
        BitVector result = new BitVector("filter", allocator);
        result.allocateNew(Math.max(rows, 1));
        for (int i = 0; i < rows; i++) {
            if (a.isNull(i) || b.isNull(i)) {
                result.setNull(i);
            } else {
                result.set(i, a.get(i) < b.get(i) ? 1 : 0);
            }
        }
        result.setValueCount(rows);
        return result;
    }

    @Override
    public List<PhysicalExpr> children() {
        return List.of(new ColumnExpr(left, "#" + left, QuiverTypes.INT32, true), new ColumnExpr(right, "#" + right, QuiverTypes.INT32, true));
    }

    @Override
    public String display() {
        return "#" + left + " < #" + right;
    }
}
