package dev.quiver.engine.batch;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.BitVectorHelper;
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
        if (source instanceof BaseFixedWidthVector fixed && !(source instanceof BitVector)) {
            int width = fixed.getTypeWidth();
            if (width == 4 || width == 8 || width == 16) {
                return takeFixed(fixed, width, indices, count, allocator);
            }
        }
        if (source instanceof BaseVariableWidthVector variable) {
            return takeVariable(variable, indices, count, allocator);
        }
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

    /** Fixed-width values copied buffer to buffer: no per-row virtual calls or capacity checks. */
    private static FieldVector takeFixed(BaseFixedWidthVector source, int width, int[] indices, int count, BufferAllocator allocator) {
        BaseFixedWidthVector target = (BaseFixedWidthVector) source.getField().createVector(allocator);
        try {
            target.allocateNew(Math.max(count, 1));
            ArrowBuf from = source.getDataBuffer();
            ArrowBuf to = target.getDataBuffer();
            ArrowBuf fromValidity = source.getValidityBuffer();
            ArrowBuf toValidity = target.getValidityBuffer();
            // every row starts NULL; the loop sets the valid ones
            toValidity.setZero(0, toValidity.capacity());
            for (int i = 0; i < count; i++) {
                int index = indices[i];
                if (index < 0 || BitVectorHelper.get(fromValidity, index) == 0) {
                    continue;
                }
                BitVectorHelper.setBit(toValidity, i);
                switch (width) {
                    case 4 -> to.setInt((long) i * 4, from.getInt((long) index * 4));
                    case 8 -> to.setLong((long) i * 8, from.getLong((long) index * 8));
                    default -> {
                        to.setLong((long) i * 16, from.getLong((long) index * 16));
                        to.setLong((long) i * 16 + 8, from.getLong((long) index * 16 + 8));
                    }
                }
            }
            target.setValueCount(count);
            return target;
        } catch (RuntimeException e) {
            target.close();
            throw e;
        }
    }

    /** Strings and binaries: offsets computed and bytes copied buffer to buffer. */
    private static FieldVector takeVariable(BaseVariableWidthVector source, int[] indices, int count, BufferAllocator allocator) {
        BaseVariableWidthVector target = (BaseVariableWidthVector) source.getField().createVector(allocator);
        try {
            allocate(target, count, source, indices);
            ArrowBuf fromOffsets = source.getOffsetBuffer();
            ArrowBuf fromData = source.getDataBuffer();
            ArrowBuf fromValidity = source.getValidityBuffer();
            ArrowBuf toOffsets = target.getOffsetBuffer();
            ArrowBuf toData = target.getDataBuffer();
            ArrowBuf toValidity = target.getValidityBuffer();
            toValidity.setZero(0, toValidity.capacity());
            int position = 0;
            toOffsets.setInt(0, 0);
            for (int i = 0; i < count; i++) {
                int index = indices[i];
                if (index >= 0 && BitVectorHelper.get(fromValidity, index) == 1) {
                    int start = fromOffsets.getInt((long) index * 4);
                    int length = fromOffsets.getInt((long) index * 4 + 4) - start;
                    toData.setBytes(position, fromData, start, length);
                    position += length;
                    BitVectorHelper.setBit(toValidity, i);
                }
                toOffsets.setInt((long) (i + 1) * 4, position);
            }
            // every offset is written: setValueCount must not "fill holes" after a stale last index
            target.setLastSet(count - 1);
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
