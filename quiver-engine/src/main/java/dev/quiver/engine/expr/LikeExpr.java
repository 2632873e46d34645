package dev.quiver.engine.expr;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.expr.kernel.LikeMatcher;
import dev.quiver.engine.expr.kernel.Operand;
import dev.quiver.engine.expr.kernel.StringKernels;
import dev.quiver.engine.types.QuiverTypes;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;

/** {@code input [NOT] LIKE pattern [ESCAPE escape]} with SQL wildcards {@code %} and {@code _}. */
public record LikeExpr(PhysicalExpr input, String pattern, Optional<Character> escape, boolean negated) implements PhysicalExpr {
    public LikeExpr {
        requireNonNull(input, "input is null");
        requireNonNull(pattern, "pattern is null");
        requireNonNull(escape, "escape is null");
    }

    @Override
    public ArrowType type() {
        return QuiverTypes.BOOLEAN;
    }

    @Override
    public boolean nullable() {
        return input.nullable();
    }

    @Override
    public FieldVector evaluate(VectorSchemaRoot batch, BufferAllocator allocator) {
        LikeMatcher matcher = LikeMatcher.compile(pattern, escape);
        try (Operand operand = Operand.evaluate(input, batch, allocator)) {
            return StringKernels.like(operand, matcher, negated, batch.getRowCount(), allocator);
        }
    }

    @Override
    public List<PhysicalExpr> children() {
        return List.of(input);
    }

    @Override
    public String display() {
        return input.display() + (negated ? " NOT LIKE '" : " LIKE '") + pattern + "'";
    }
}
