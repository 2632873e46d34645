package dev.quiver.engine.expr;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.expr.kernel.Vectors;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * A constant; {@code value} is null for SQL NULL, otherwise the Java value that stands for
 * {@code type} (see {@link dev.quiver.engine.types.QuiverTypes}).
 */
public record LiteralExpr(Object value, ArrowType type) implements PhysicalExpr {
    public LiteralExpr {
        requireNonNull(type, "type is null");
    }

    @Override
    public boolean nullable() {
        return value == null;
    }

    @Override
    public FieldVector evaluate(VectorSchemaRoot batch, BufferAllocator allocator) {
        return Vectors.constant(type, value, batch.getRowCount(), allocator);
    }

    @Override
    public List<PhysicalExpr> children() {
        return List.of();
    }

    @Override
    public String display() {
        return value == null ? "NULL" : value instanceof String s ? "'" + s + "'" : value.toString();
    }
}
