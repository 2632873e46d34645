package dev.quiver.engine.operator.aggregate;

import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * MIN or MAX of VARCHAR values in UTF-8 byte order (which is code point order). Each group keeps
 * its current value in its own buffer, reused while the new value fits, so an update allocates only
 * when a group's value gets longer than any it held before.
 */
final class StringMinMaxAccumulator extends Accumulator {
    private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    private final boolean max;
    private byte[][] values = new byte[0][];
    private int[] lengths = new int[0];
    private long valueBytes;
    /** The batch's extreme value, copied out to compare with the group's. */
    private byte[] candidate = new byte[0];

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
    public int bytesPerGroup() {
        return 8 + 4 + 16;
    }

    @Override
    public long variableBytes() {
        return valueBytes;
    }

    @Override
    public void update(int[] groupIds, int rows, List<FieldVector> inputs) {
        updateValues(groupIds, rows, inputs.get(0));
    }

    private void updateValues(int[] groupIds, int rows, FieldVector arg) {
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

    /**
     * Without NULLs: finds the batch's extreme value comparing bytes in place in the Arrow buffers,
     * by 8-byte prefixes, and copies only that one value out.
     */
    @Override
    public void updateSingleGroup(int[] zeros, int rows, List<FieldVector> inputs) {
        updateSingleValues(zeros, rows, inputs.get(0));
    }

    private void updateSingleValues(int[] zeros, int rows, FieldVector arg) {
        if (arg.getNullCount() != 0) {
            updateValues(zeros, rows, arg);
            return;
        }
        ArrowBuf dataBuffer = arg.getDataBuffer();
        long offsets = checkedOffsets(arg, rows);
        long data = dataBuffer.memoryAddress();
        long capacity = dataBuffer.capacity();
        int sign = max ? 1 : -1;
        int bestStart = MemoryUtil.getInt(offsets);
        int bestEnd = nextOffset(offsets, 0, bestStart);
        long bestPrefix = prefix(data, bestStart, bestEnd - bestStart, capacity);
        int end = bestEnd;
        for (int i = 1; i < rows; i++) {
            int start = end;
            end = nextOffset(offsets, i, start);
            long prefix = prefix(data, start, end - start, capacity);
            if (order(data, start, end, prefix, bestStart, bestEnd, bestPrefix) * sign > 0) {
                bestStart = start;
                bestEnd = end;
                bestPrefix = prefix;
            }
        }
        fold(dataBuffer, bestStart, bestEnd);
    }

    /** Markers {@link #pairs} gives a MAX computed together with the MIN of the same argument. */
    static final int PAIRED = -2;

    /**
     * For an aggregate without GROUP BY: for each string MIN, the index of a string MAX of the same
     * argument, which {@link #updatePair} computes in the same pass over the values ({@code SELECT
     * min(c), max(c)}); {@link #PAIRED} for that MAX; -1 for every other aggregate.
     */
    static int[] pairs(List<AggregateExpr> aggregates, Accumulator[] accumulators) {
        int[] pairs = new int[accumulators.length];
        Arrays.fill(pairs, -1);
        for (int a = 0; a < accumulators.length; a++) {
            if (!(accumulators[a] instanceof StringMinMaxAccumulator min) || min.max || pairs[a] != -1) {
                continue;
            }
            for (int b = 0; b < accumulators.length; b++) {
                if (pairs[b] == -1 && accumulators[b] instanceof StringMinMaxAccumulator max && max.max
                        && aggregates.get(a).args().equals(aggregates.get(b).args())) {
                    pairs[a] = b;
                    pairs[b] = PAIRED;
                    break;
                }
            }
        }
        return pairs;
    }

    /** {@link #updateSingleGroup} of a MIN and a MAX over the same values, in one pass. */
    static void updatePair(Accumulator minAccumulator, Accumulator maxAccumulator, int[] zeros, int rows, FieldVector arg) {
        StringMinMaxAccumulator min = (StringMinMaxAccumulator) minAccumulator;
        StringMinMaxAccumulator max = (StringMinMaxAccumulator) maxAccumulator;
        if (arg.getNullCount() != 0) {
            min.updateValues(zeros, rows, arg);
            max.updateValues(zeros, rows, arg);
            return;
        }
        ArrowBuf dataBuffer = arg.getDataBuffer();
        long offsets = checkedOffsets(arg, rows);
        long data = dataBuffer.memoryAddress();
        long capacity = dataBuffer.capacity();
        int minStart = MemoryUtil.getInt(offsets);
        int minEnd = nextOffset(offsets, 0, minStart);
        long minPrefix = prefix(data, minStart, minEnd - minStart, capacity);
        int maxStart = minStart;
        int maxEnd = minEnd;
        long maxPrefix = minPrefix;
        int end = minEnd;
        for (int i = 1; i < rows; i++) {
            int start = end;
            end = nextOffset(offsets, i, start);
            long prefix = prefix(data, start, end - start, capacity);
            if (order(data, start, end, prefix, minStart, minEnd, minPrefix) < 0) {
                minStart = start;
                minEnd = end;
                minPrefix = prefix;
            } else if (order(data, start, end, prefix, maxStart, maxEnd, maxPrefix) > 0) {
                maxStart = start;
                maxEnd = end;
                maxPrefix = prefix;
            }
        }
        min.fold(dataBuffer, minStart, minEnd);
        max.fold(dataBuffer, maxStart, maxEnd);
    }

    /** The address of the offsets of {@code rows} values, after checking that they lie within the vector's buffers. */
    private static long checkedOffsets(FieldVector arg, int rows) {
        ArrowBuf dataBuffer = arg.getDataBuffer();
        long offsets = Columns.checkedAddress(arg.getOffsetBuffer(), rows + 1, 4);
        int first = MemoryUtil.getInt(offsets);
        int last = MemoryUtil.getInt(offsets + (long) rows * 4);
        if (first < 0 || last < first || last > dataBuffer.capacity()) {
            throw new IndexOutOfBoundsException("string offsets " + first + ".." + last + " in a buffer of " + dataBuffer.capacity() + " bytes");
        }
        return offsets;
    }

    /** The end offset of row {@code row}, which starts at {@code start}; offsets that never decrease stay within the checked range. */
    private static int nextOffset(long offsets, int row, int start) {
        int end = MemoryUtil.getInt(offsets + (long) (row + 1) * 4);
        if (end < start) {
            throw new IllegalStateException("string offsets decrease at row " + row + ": " + start + " > " + end);
        }
        return end;
    }

    /** The order of value {@code [start, end)} against {@code [bestStart, bestEnd)}, given their prefixes. */
    private static int order(long data, int start, int end, long prefix, int bestStart, int bestEnd, long bestPrefix) {
        if (prefix != bestPrefix) {
            return Long.compareUnsigned(prefix, bestPrefix);
        }
        int length = end - start;
        int bestLength = bestEnd - bestStart;
        if (length <= 8 && bestLength <= 8) {
            // equal prefixes hold both values whole: the shorter one is a prefix of the other
            return Integer.compare(length, bestLength);
        }
        return compareBytes(data + start, length, data + bestStart, bestLength);
    }

    /** Folds a batch's extreme value {@code [start, end)} of {@code dataBuffer} into group 0. */
    private void fold(ArrowBuf dataBuffer, int start, int end) {
        int length = end - start;
        if (candidate.length < length) {
            candidate = new byte[length];
        }
        dataBuffer.getBytes(start, candidate, 0, length);
        byte[] current = values[0];
        if (current == null || Arrays.compareUnsigned(candidate, 0, length, current, 0, lengths[0]) * (max ? 1 : -1) > 0) {
            if (current == null || current.length < length) {
                valueBytes += length - (current == null ? 0 : current.length);
                current = new byte[length];
                values[0] = current;
            }
            System.arraycopy(candidate, 0, current, 0, length);
            lengths[0] = length;
        }
    }

    /**
     * The first eight bytes of a value as an unsigned big-endian number, zero-padded: two values
     * whose prefixes differ are ordered as their prefixes are (a shorter value's padding sorts
     * below any byte where the other goes on), so only equal prefixes need {@link #compareBytes}.
     */
    static long prefix(long data, int start, int length, long capacity) {
        if (start + 8L > capacity) {
            long word = 0;
            for (int i = 0; i < 8 && i < length; i++) {
                word |= (MemoryUtil.getByte(data + start + i) & 0xffL) << (56 - 8 * i);
            }
            return word;
        }
        long word = MemoryUtil.getLong(data + start);
        if (LITTLE_ENDIAN) {
            word = Long.reverseBytes(word);
        }
        return length >= 8 ? word : word & ~(-1L >>> (8 * length));
    }

    /** Compares UTF-8 bytes at two addresses as unsigned bytes, eight at a time; a prefix sorts first. */
    static int compareBytes(long a, int lengthA, long b, int lengthB) {
        int common = Math.min(lengthA, lengthB);
        int i = 0;
        for (; i + 8 <= common; i += 8) {
            long x = MemoryUtil.getLong(a + i);
            long y = MemoryUtil.getLong(b + i);
            if (x != y) {
                return LITTLE_ENDIAN ? Long.compareUnsigned(Long.reverseBytes(x), Long.reverseBytes(y)) : Long.compareUnsigned(x, y);
            }
        }
        for (; i < common; i++) {
            int x = MemoryUtil.getByte(a + i) & 0xff;
            int y = MemoryUtil.getByte(b + i) & 0xff;
            if (x != y) {
                return x - y;
            }
        }
        return Integer.compare(lengthA, lengthB);
    }

    @Override
    public void merge(int[] groupIds, int rows, List<FieldVector> states) {
        updateValues(groupIds, rows, states.get(0));
    }

    @Override
    public void state(List<Field> fields, int from, int count, BufferAllocator allocator, List<FieldVector> out) {
        out.add(evaluate(fields.get(0), from, count, allocator));
    }

    @Override
    public FieldVector evaluate(Field field, int from, int count, BufferAllocator allocator) {
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
