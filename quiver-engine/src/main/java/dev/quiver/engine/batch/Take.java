package dev.quiver.engine.batch;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The gather kernel: builds new vectors from chosen rows of existing ones. Joins, sorts, filters
 * and repartitions all reduce to it. An index of {@code -1} produces a NULL (outer-join padding).
 */
public final class Take {
    private Take() {}

    /** Rows {@code indices[0..count)} of {@code source} as a new vector the caller owns. */
    public static FieldVector take(ValueVector source, int[] indices, int count, BufferAllocator allocator) {
        FieldVector target = (FieldVector) source.getField().createVector(allocator);
        try {
            allocate(target, count, source, indices);
            for (int i = 0; i < count; i++) {
                int index = indices[i];
                if (index < 0) {
                    VectorValues.setNull(target, i);
                } else {
                    target.copyFromSafe(index, i, source);
                }
            }
            target.setValueCount(count);
            return target;
        } catch (RuntimeException e) {
            target.close();
            throw e;
        }
    }

    /** A vector of {@code count} nulls shaped like {@code field}'s type. */
    public static FieldVector nulls(org.apache.arrow.vector.types.pojo.Field field, int count, BufferAllocator allocator) {
        FieldVector target = field.createVector(allocator);
        target.setInitialCapacity(count);
        target.allocateNew();
        for (int i = 0; i < count; i++) {
            VectorValues.setNull(target, i);
        }
        target.setValueCount(count);
        return target;
    }

    /** Rows {@code indices[0..count)} of every column of {@code batch}. */
    public static VectorSchemaRoot take(VectorSchemaRoot batch, int[] indices, int count, BufferAllocator allocator) {
        List<FieldVector> vectors = new ArrayList<>(batch.getFieldVectors().size());
        try {
            for (FieldVector vector : batch.getFieldVectors()) {
                vectors.add(take(vector, indices, count, allocator));
            }
        } catch (RuntimeException e) {
            vectors.forEach(FieldVector::close);
            throw e;
        }
        return new VectorSchemaRoot(batch.getSchema().getFields(), vectors, count);
    }

    /** Rows {@code indices[0..count)} of every column, under a given schema (names may differ). */
    public static VectorSchemaRoot take(Schema schema, VectorSchemaRoot batch, int[] indices, int count, BufferAllocator allocator) {
        VectorSchemaRoot taken = take(batch, indices, count, allocator);
        List<FieldVector> vectors = new ArrayList<>(taken.getFieldVectors());
        return new VectorSchemaRoot(schema.getFields(), vectors, count);
    }

    private static void allocate(FieldVector target, int count, ValueVector source, int[] indices) {
        if (target instanceof BaseVariableWidthVector variable && source instanceof BaseVariableWidthVector sourceVariable) {
            long bytes = 0;
            for (int i = 0; i < count; i++) {
                int index = indices[i];
                if (index >= 0 && !sourceVariable.isNull(index)) {
                    bytes += sourceVariable.getValueLength(index);
                }
            }
            variable.allocateNew(Math.max(bytes, 1), Math.max(count, 1));
        } else if (target instanceof BaseFixedWidthVector fixed) {
            fixed.allocateNew(Math.max(count, 1));
        } else {
            target.setInitialCapacity(Math.max(count, 1));
            target.allocateNew();
        }
    }
}
