package dev.quiver.engine.operator.window;

import dev.quiver.engine.batch.Take;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.util.TransferPair;

/** Shapes an evaluator's result into the window expression's output column. */
final class ResultVectors {
    private ResultVectors() {}

    /**
     * The values of {@code count} rows whose row i takes value {@code groupOf[i]} of {@code values}
     * (which has one value per group), under {@code field}. Takes ownership of {@code values}.
     */
    static FieldVector expand(FieldVector values, int[] groupOf, int groups, int count, Field field, BufferAllocator allocator) {
        FieldVector rows = values;
        if (groups != count) {
            try (values) {
                rows = Take.take(values, groupOf, count, allocator);
            }
        }
        return as(rows, field, allocator);
    }

    /** {@code vector} under {@code field}'s name and nullability (a zero-copy transfer when they differ); takes ownership. */
    static FieldVector as(FieldVector vector, Field field, BufferAllocator allocator) {
        if (vector.getField().equals(field)) {
            return vector;
        }
        try (vector) {
            TransferPair transfer = vector.getTransferPair(field, allocator);
            transfer.transfer();
            return (FieldVector) transfer.getTo();
        }
    }
}
