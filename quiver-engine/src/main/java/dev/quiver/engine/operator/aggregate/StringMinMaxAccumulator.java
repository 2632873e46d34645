package dev.quiver.engine.operator.aggregate;

import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * MIN or MAX of VARCHAR values in UTF-8 byte order (which is code point order). Each group keeps
 * its current value in its own buffer, reused while the new value fits, so an update allocates only
 * when a group's value gets longer than any it held before.
 */
final class StringMinMaxAccumulator extends Accumulator {
    private final boolean max;
    private byte[][] values = new byte[0][];
    private int[] lengths = new int[0];
    private long valueBytes;

    StringMinMaxAccumulator(boolean max) {
        this.max = max;
    }

    @Override
    protected void grow(int newCapacity) {
        values = Arrays.copyOf(values, newCapacity);
        lengths = Arrays.copyOf(lengths, newCapacity);
        if (newCapacity == 0) {
            valueBytes = 0;
        }
    }

    @Override
    int bytesPerGroup() {
        return 8 + 4 + 16;
    }

    @Override
    long variableBytes() {
        return valueBytes;
    }

    @Override
    void update(int[] groupIds, int rows, FieldVector arg) {
        StringKeyColumn.StringBatch batch = scratch().strings;
        batch.load(arg, rows);
        boolean[] nulls = scratch().nulls(arg, rows);
        int sign = max ? 1 : -1;
        byte[] data = batch.data;
        int[] offsets = batch.offsets;
        for (int i = 0; i < rows; i++) {
            if (nulls != null && nulls[i]) {
                continue;
            }
            int g = groupIds[i];
            byte[] current = values[g];
            int start = offsets[i];
            int end = offsets[i + 1];
            if (current == null || Arrays.compareUnsigned(data, start, end, current, 0, lengths[g]) * sign > 0) {
                int length = end - start;
                if (current == null || current.length < length) {
                    valueBytes += length - (current == null ? 0 : current.length);
                    current = new byte[length];
                    values[g] = current;
                }
                System.arraycopy(data, start, current, 0, length);
                lengths[g] = length;
            }
        }
    }

    @Override
    void merge(int[] groupIds, int rows, List<FieldVector> states) {
        update(groupIds, rows, states.get(0));
    }

    @Override
    void state(List<Field> fields, int from, int count, BufferAllocator allocator, List<FieldVector> out) {
        out.add(evaluate(fields.get(0), from, count, allocator));
    }

    @Override
    FieldVector evaluate(Field field, int from, int count, BufferAllocator allocator) {
        long bytes = 0;
        for (int g = from; g < from + count; g++) {
            bytes += lengths[g];
        }
        FieldVector vector = Columns.newVector(field, count, bytes, allocator);
        try {
            for (int i = 0; i < count; i++) {
                byte[] value = values[from + i];
                if (value != null) {
                    Columns.setString(vector, i, value, 0, lengths[from + i]);
                }
            }
            vector.setValueCount(count);
            return vector;
        } catch (RuntimeException e) {
            vector.close();
            throw e;
        }
    }
}
