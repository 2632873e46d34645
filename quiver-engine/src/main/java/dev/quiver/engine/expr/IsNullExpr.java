package dev.quiver.engine.expr;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.expr.kernel.LogicalKernels;
import dev.quiver.engine.expr.kernel.Operand;
import dev.quiver.engine.types.QuiverTypes;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;

/** {@code input IS NULL}, or {@code IS NOT NULL} when negated; never NULL itself. */
public record IsNullExpr(PhysicalExpr input, boolean negated) implements PhysicalExpr {
    public IsNullExpr {
        requireNonNull(input, "input is null");
    }

    @Override
    public ArrowType type() {
        return QuiverTypes.BOOLEAN;
    }

    @Override
    public boolean nullable() {
        return false;
    }

    @Override
    public FieldVector evaluate(VectorSchemaRoot batch, BufferAllocator allocator) {
        try (Operand operand = Operand.evaluate(input, batch, allocator)) {
            return LogicalKernels.isNull(operand, negated, batch.getRowCount(), allocator);
        }
    }

    @Override
    public List<PhysicalExpr> children() {
        return List.of(input);
    }

    @Override
    public String display() {
        return input.display() + (negated ? " IS NOT NULL" : " IS NULL");
    }
}
