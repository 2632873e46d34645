package dev.quiver.engine.expr;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.expr.kernel.NumericFunctions;
import dev.quiver.engine.expr.kernel.Operand;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;

/** Arithmetic {@code -input}, of the input's type. */
public record NegateExpr(PhysicalExpr input) implements PhysicalExpr {
    public NegateExpr {
        requireNonNull(input, "input is null");
    }

    @Override
    public ArrowType type() {
        return input.type();
    }

    @Override
    public boolean nullable() {
        return input.nullable();
    }

    @Override
    public FieldVector evaluate(VectorSchemaRoot batch, BufferAllocator allocator) {
        try (Operand operand = Operand.evaluate(input, batch, allocator)) {
            return NumericFunctions.negate(operand, type(), display(), batch.getRowCount(), allocator);
        }
    }

    @Override
    public List<PhysicalExpr> children() {
        return List.of(input);
    }

    @Override
    public String display() {
        return "-" + input.display();
    }
}
