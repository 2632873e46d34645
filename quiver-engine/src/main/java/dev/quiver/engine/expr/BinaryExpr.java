package dev.quiver.engine.expr;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.expr.kernel.ArithmeticKernels;
import dev.quiver.engine.expr.kernel.ComparisonKernels;
import dev.quiver.engine.expr.kernel.LogicalKernels;
import dev.quiver.engine.expr.kernel.Operand;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * {@code left op right}. Operands may have different numeric types (INTEGER and DECIMAL, decimals
 * of different scales); {@code type} is the result type, chosen by the SQL layer, which the
 * evaluation produces exactly (for comparisons and logic: BOOLEAN).
 */
public record BinaryExpr(BinaryOperator op, PhysicalExpr left, PhysicalExpr right, ArrowType type) implements PhysicalExpr {
    public BinaryExpr {
        requireNonNull(op, "op is null");
        requireNonNull(left, "left is null");
        requireNonNull(right, "right is null");
        requireNonNull(type, "type is null");
    }

    @Override
    public boolean nullable() {
        return switch (op) {
            case IS_DISTINCT_FROM, IS_NOT_DISTINCT_FROM -> false;
            default -> left.nullable() || right.nullable();
        };
    }

    @Override
    public FieldVector evaluate(VectorSchemaRoot batch, BufferAllocator allocator) {
        int rows = batch.getRowCount();
        if (op == BinaryOperator.AND || op == BinaryOperator.OR) {
            return LogicalKernels.shortCircuit(this, batch, allocator);
        }
        try (Operand l = Operand.evaluate(left, batch, allocator); Operand r = Operand.evaluate(right, batch, allocator)) {
            if (op.isArithmetic()) {
                return ArithmeticKernels.evaluate(op, l, r, type, display(), rows, allocator);
            }
            return ComparisonKernels.compare(op, l, r, rows, allocator);
        }
    }

    @Override
    public List<PhysicalExpr> children() {
        return List.of(left, right);
    }

    @Override
    public String display() {
        return "(" + left.display() + " " + op.symbol() + " " + right.display() + ")";
    }
}
