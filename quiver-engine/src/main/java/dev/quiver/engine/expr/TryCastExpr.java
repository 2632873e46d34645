package dev.quiver.engine.expr;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.expr.kernel.CastKernels;
import dev.quiver.engine.expr.kernel.Operand;
import dev.quiver.engine.types.QuiverTypes;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * {@code TRY_CAST(input AS type)}: {@link CastExpr}, except that a value the cast rejects
 * (INVALID_CAST, NUMERIC_VALUE_OUT_OF_RANGE) becomes NULL instead of failing the query.
 */
public record TryCastExpr(PhysicalExpr input, ArrowType type) implements PhysicalExpr {
    public TryCastExpr {
        requireNonNull(input, "input is null");
        requireNonNull(type, "type is null");
    }

    @Override
    public boolean nullable() {
        return true;
    }

    @Override
    public FieldVector evaluate(VectorSchemaRoot batch, BufferAllocator allocator) {
        try (Operand operand = Operand.evaluate(input, batch, allocator)) {
            return CastKernels.tryCast(operand, type, display(), batch.getRowCount(), allocator);
        }
    }

    @Override
    public List<PhysicalExpr> children() {
        return List.of(input);
    }

    @Override
    public String display() {
        return "TRY_CAST(" + input.display() + " AS " + QuiverTypes.sqlName(type) + ")";
    }
}
