package dev.quiver.engine.operator.aggregate;

import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * The base of the approximate aggregates, whose per-group state is a sketch object: the partial
 * state is one VARBINARY column of serialized sketches, and what the sketches hold beyond the
 * per-group arrays is counted in {@link #variableBytes()}, which the operator reserves.
 */
abstract class SketchAccumulator extends Accumulator {
    static final long ARRAY_HEADER_BYTES = 16;

    private long variableBytes;

    @Override
    public final long variableBytes() {
        return variableBytes;
    }

    /** Counts {@code delta} more (or, negative, fewer) bytes held by the sketches. */
    final void held(long delta) {
        variableBytes += delta;
    }

    @Override
    protected void grow(int newCapacity) {
        if (newCapacity == 0) {
            variableBytes = 0;
        }
    }

    @Override
    public final void merge(int[] groupIds, int rows, List<FieldVector> states) {
        VarBinaryVector state = (VarBinaryVector) states.get(0);
        for (int i = 0; i < rows; i++) {
            merge(groupIds[i], state.get(i));
        }
    }

    /** Folds one serialized sketch ({@link #serialize}) into group {@code g}. */
    protected abstract void merge(int g, byte[] sketch);

    @Override
    public final void state(List<Field> fields, int from, int count, BufferAllocator allocator, List<FieldVector> out) {
        VarBinaryVector vector = (VarBinaryVector) Columns.newVector(fields.get(0), count, 1L + count, allocator);
        out.add(vector);
        for (int i = 0; i < count; i++) {
            vector.setSafe(i, serialize(from + i));
        }
        vector.setValueCount(count);
    }

    /** Group {@code g}'s sketch as bytes, which {@link #merge(int, byte[])} reads back; an empty group too. */
    protected abstract byte[] serialize(int g);
}
