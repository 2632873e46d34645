package dev.quiver.engine.operator.aggregate;

import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * The base of the holistic aggregates (percentiles, MODE, STRING_AGG): they gather every input row
 * of a group ({@link GatheredRows}) and compute the result from all of them when the group is
 * evaluated. They have no partial state, so they run only in SINGLE mode; what they gather is
 * reported by {@link #variableBytes()}, which the operator reserves in its memory pool, so a group
 * too large for the pool fails the query with EXCEEDED_MEMORY_LIMIT naming the operator.
 */
abstract class HolisticAccumulator extends Accumulator {
    protected final GatheredRows rows;
    private int groupCapacity;

    HolisticAccumulator(List<ArrowType> inputTypes) {
        this.rows = new GatheredRows(inputTypes);
    }

    @Override
    protected void grow(int newCapacity) {
        groupCapacity = newCapacity;
        if (newCapacity == 0) {
            rows.clear();
        }
    }

    /** The arrangement's start and cursor arrays, per group. */
    @Override
    public int bytesPerGroup() {
        return 8;
    }

    @Override
    public long variableBytes() {
        return rows.bytes();
    }

    @Override
    public void update(int[] groupIds, int rowCount, List<FieldVector> inputs) {
        rows.append(groupIds, rowCount, inputs);
    }

    @Override
    public void merge(int[] groupIds, int rowCount, List<FieldVector> states) {
        throw new IllegalStateException(getClass().getSimpleName() + " has no partial state");
    }

    @Override
    public void state(List<Field> fields, int from, int count, BufferAllocator allocator, List<FieldVector> out) {
        throw new IllegalStateException(getClass().getSimpleName() + " has no partial state");
    }

    @Override
    public final FieldVector evaluate(Field field, int from, int count, BufferAllocator allocator) {
        rows.arrange(groupCapacity);
        FieldVector vector = Columns.newVector(field, count, 0, allocator);
        try {
            for (int i = 0; i < count; i++) {
                int g = from + i;
                int start = rows.start(g);
                int end = rows.start(g + 1);
                if (end > start) {
                    evaluateGroup(start, end, vector, i);
                }
            }
            vector.setValueCount(count);
            return vector;
        } catch (RuntimeException e) {
            vector.close();
            throw e;
        }
    }

    /**
     * Writes the result of the group whose rows are {@code rows.order()[start, end)} (at least one)
     * to position {@code index} of {@code out}; the group's run of the arrangement may be reordered.
     */
    protected abstract void evaluateGroup(int start, int end, FieldVector out, int index);
}
