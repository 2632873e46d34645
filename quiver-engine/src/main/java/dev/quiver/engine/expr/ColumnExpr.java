package dev.quiver.engine.expr;

import static java.util.Objects.requireNonNull;

import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.util.TransferPair;

/** The column at {@code index} of the input batch; {@code name} is for display only. */
public record ColumnExpr(int index, String name, ArrowType type, boolean nullable) implements PhysicalExpr {
    public ColumnExpr {
        if (index < 0) {
            throw new IllegalArgumentException("column index must not be negative: " + index);
        }
        requireNonNull(name, "name is null");
        requireNonNull(type, "type is null");
    }

    @Override
    public FieldVector evaluate(VectorSchemaRoot batch, BufferAllocator allocator) {
        FieldVector source = batch.getVector(index);
        int rows = batch.getRowCount();
        if (rows == 0) {
            FieldVector empty = source.getField().createVector(allocator);
            empty.allocateNew();
            empty.setValueCount(0);
            return empty;
        }
        // Zero-copy: the result shares the column's buffers by reference count; the batch stays intact.
        TransferPair pair = source.getTransferPair(allocator);
        pair.splitAndTransfer(0, rows);
        return (FieldVector) pair.getTo();
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
