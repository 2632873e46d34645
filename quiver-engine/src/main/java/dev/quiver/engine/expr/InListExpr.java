package dev.quiver.engine.expr;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.expr.kernel.InListKernels;
import dev.quiver.engine.expr.kernel.Operand;
import dev.quiver.engine.types.QuiverTypes;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * {@code input [NOT] IN (v1, v2, ...)} over constant values of the input's type (Java values as
 * in {@link LiteralExpr}; a null element is SQL NULL, which makes a non-match NULL).
 */
public record InListExpr(PhysicalExpr input, List<Object> values, boolean negated) implements PhysicalExpr {
    public InListExpr {
        requireNonNull(input, "input is null");
        values = Collections.unmodifiableList(new ArrayList<>(requireNonNull(values, "values is null")));
    }

    @Override
    public ArrowType type() {
        return QuiverTypes.BOOLEAN;
    }

    @Override
    public boolean nullable() {
        return input.nullable() || values.contains(null);
    }

    @Override
    public FieldVector evaluate(VectorSchemaRoot batch, BufferAllocator allocator) {
        try (Operand operand = Operand.evaluate(input, batch, allocator)) {
            return InListKernels.in(operand, values, negated, batch.getRowCount(), allocator);
        }
    }

    @Override
    public List<PhysicalExpr> children() {
        return List.of(input);
    }

    @Override
    public String display() {
        return input.display() + (negated ? " NOT IN " : " IN ") + values;
    }
}
