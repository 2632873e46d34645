package dev.quiver.engine.operator.window;

import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.Field;

/** {@code ROW_NUMBER()}: the row's position in its partition, from 1. */
final class RowNumberEvaluator implements WindowEvaluator {
    private final PartitionLayout layout;
    private final WindowChunk chunk;
    private final Field field;

    RowNumberEvaluator(WindowChunk chunk, Field field) {
        this.chunk = chunk;
        this.layout = chunk.layout();
        this.field = field;
    }

    @Override
    public FieldVector evaluate(int from, int count) {
        BigIntVector out = (BigIntVector) field.createVector(chunk.allocator());
        try {
            out.allocateNew(Math.max(count, 1));
            for (int i = 0; i < count; i++) {
                int row = from + i;
                out.set(i, row - layout.partitionStart(row) + 1L);
            }
            out.setValueCount(count);
            return out;
        } catch (RuntimeException e) {
            out.close();
            throw e;
        }
    }
}
