package dev.quiver.engine.operator.sort;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.NullVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/** Gathers rows chosen from several batches of one schema into a new batch. */
public final class MultiTake {
    private MultiTake() {}

    /**
     * A batch of {@code count} rows: row {@code i} is row {@code rows[from + i]} of batch
     * {@code batchOf[from + i]} of {@code batches}.
     */
    public static VectorSchemaRoot take(Schema schema, List<VectorSchemaRoot> batches, int[] batchOf, int[] rows, int from, int count,
            BufferAllocator allocator) {
        List<FieldVector> vectors = new ArrayList<>(schema.getFields().size());
        try {
            for (int c = 0; c < schema.getFields().size(); c++) {
                vectors.add(takeColumn(schema.getFields().get(c), c, batches, batchOf, rows, from, count, allocator));
            }
        } catch (RuntimeException e) {
            vectors.forEach(FieldVector::close);
            throw e;
        }
        return new VectorSchemaRoot(schema.getFields(), vectors, count);
    }

    private static FieldVector takeColumn(Field field, int column, List<VectorSchemaRoot> batches, int[] batchOf, int[] rows, int from,
            int count, BufferAllocator allocator) {
        FieldVector[] sources = new FieldVector[batches.size()];
        for (int b = 0; b < sources.length; b++) {
            sources[b] = batches.get(b).getVector(column);
        }
        FieldVector target = field.createVector(allocator);
        if (target instanceof NullVector nulls) {
            nulls.setValueCount(count);
            return nulls;
        }
        try {
            if (target instanceof BaseVariableWidthVector variable) {
                long bytes = 0;
                for (int i = from; i < from + count; i++) {
                    BaseVariableWidthVector source = (BaseVariableWidthVector) sources[batchOf[i]];
                    if (!source.isNull(rows[i])) {
                        bytes += source.getValueLength(rows[i]);
                    }
                }
                variable.allocateNew(Math.max(bytes, 1), Math.max(count, 1));
            } else if (target instanceof BaseFixedWidthVector fixed) {
                fixed.allocateNew(Math.max(count, 1));
            } else {
                target.setInitialCapacity(Math.max(count, 1));
                target.allocateNew();
            }
            for (int i = 0; i < count; i++) {
                target.copyFromSafe(rows[from + i], i, sources[batchOf[from + i]]);
            }
            target.setValueCount(count);
            return target;
        } catch (RuntimeException e) {
            target.close();
            throw e;
        }
    }
}
