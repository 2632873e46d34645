package dev.quiver.engine.expr;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.execution.PlanChecks;
import dev.quiver.engine.expr.kernel.Vectors;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;

/** The column at {@code index} of the input batch; {@code name} is for display only. */
public record ColumnExpr(int index, String name, ArrowType type, boolean nullable) implements PhysicalExpr {
    public ColumnExpr {
        if (index < 0) {
            throw PlanChecks.planError("column " + name, "index must not be negative: %s", index);
        }
        requireNonNull(name, "name is null");
        requireNonNull(type, "type is null");
    }

    @Override
    public FieldVector evaluate(VectorSchemaRoot batch, BufferAllocator allocator) {
        // zero-copy: the result shares the column's buffers by reference count; the batch stays intact
        return Vectors.share(batch.getVector(index), batch.getRowCount(), allocator);
    }

    @Override
    public List<PhysicalExpr> children() {
        return List.of();
    }

    @Override
    public String display() {
        return name + "@" + index;
    }
}
