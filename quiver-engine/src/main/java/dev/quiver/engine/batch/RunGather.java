package dev.quiver.engine.batch;

import static java.util.Objects.requireNonNull;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;

/**
 * The gather of a selection that is mostly runs of consecutive rows, as a filter that passes most
 * rows leaves: one memory copy per run instead of one per value. Run {@code r} is rows
 * {@code [starts[r], starts[r] + lengths[r])} of the source.
 */
final class RunGather {
    /** Fewer rows per run than this on average, and copying value by value is as fast. */
    private static final int MIN_AVERAGE_RUN = 8;

    private final int[] starts;
    private final int[] lengths;
    private final int runs;
    private final int count;
    private final int lastRow;

    private RunGather(int[] starts, int[] lengths, int runs, int count, int lastRow) {
        this.starts = requireNonNull(starts, "starts is null");
        this.lengths = requireNonNull(lengths, "lengths is null");
        this.runs = runs;
        this.count = count;
        this.lastRow = lastRow;
    }

    /** The runs of {@code indices[0..count)} (ascending), or null when they are too short to gain. */
    static RunGather of(int[] indices, int count) {
        if (count < MIN_AVERAGE_RUN * 2) {
            return null;
        }
        int runs = 1;
        for (int k = 1; k < count; k++) {
            if (indices[k] <= indices[k - 1]) {
                return null; // not ascending: the caller's value-by-value gather handles any order
            }
            runs += indices[k] != indices[k - 1] + 1 ? 1 : 0;
        }
        if ((long) runs * MIN_AVERAGE_RUN > count) {
            return null;
        }
        int[] starts = new int[runs];
        int[] lengths = new int[runs];
        int r = 0;
        starts[0] = indices[0];
        lengths[0] = 1;
        for (int k = 1; k < count; k++) {
            if (indices[k] == indices[k - 1] + 1) {
                lengths[r]++;
            } else {
                r++;
                starts[r] = indices[k];
                lengths[r] = 1;
            }
        }
        return new RunGather(starts, lengths, runs, count, indices[count - 1]);
    }

    FieldVector fixed(BaseFixedWidthVector source, BufferAllocator allocator) {
        BaseFixedWidthVector target = (BaseFixedWidthVector) source.getField().createVector(allocator);
        try {
            OverwriteAllocation.allocate(target, count);
            int width = source.getTypeWidth();
            ArrowBuf from = source.getDataBuffer();
            ArrowBuf to = target.getDataBuffer();
            if ((lastRow + 1L) * width > from.capacity() || (long) count * width > to.capacity()) {
                throw new IndexOutOfBoundsException("gather of " + count + " values up to row " + lastRow + " (width " + width
                        + ") outside buffers of " + from.capacity() + " and " + to.capacity() + " bytes");
            }
            long src = from.memoryAddress();
            long dst = to.memoryAddress();
            long at = 0;
            for (int r = 0; r < runs; r++) {
                long bytes = (long) lengths[r] * width;
                MemoryUtil.copyMemory(src + (long) starts[r] * width, dst + at, bytes);
                at += bytes;
            }
            copyValidity(source, target.getValidityBuffer());
            target.setValueCount(count);
            return target;
        } catch (RuntimeException e) {
            target.close();
            throw e;
        }
    }

    FieldVector strings(VarCharVector source, BufferAllocator allocator) {
        VarCharVector target = (VarCharVector) source.getField().createVector(allocator);
        try {
            ArrowBuf offsets = source.getOffsetBuffer();
            long dataCapacity = source.getDataBuffer().capacity();
            if ((lastRow + 2L) * 4 > offsets.capacity()) {
                throw new IndexOutOfBoundsException("gather of strings up to row " + lastRow + " beyond offsets of " + offsets.capacity() + " bytes");
            }
            long offsetsAddress = offsets.memoryAddress();
            long bytes = 0;
            for (int r = 0; r < runs; r++) {
                int first = MemoryUtil.getInt(offsetsAddress + ((long) starts[r] << 2));
                int end = MemoryUtil.getInt(offsetsAddress + ((long) (starts[r] + lengths[r]) << 2));
                if (first < 0 || end < first || end > dataCapacity) {
                    throw new IndexOutOfBoundsException("strings " + starts[r] + ".." + (starts[r] + lengths[r] - 1) + " at [" + first
                            + ", " + end + ") outside " + dataCapacity + " bytes");
                }
                bytes += end - first;
            }
            Filter.allocateStrings(target, count, bytes);
            long dataAddress = source.getDataBuffer().memoryAddress();
            long targetOffsetsAddress = target.getOffsetBuffer().memoryAddress();
            long targetDataAddress = target.getDataBuffer().memoryAddress();
            int end = 0;
            int out = 0;
            MemoryUtil.putInt(targetOffsetsAddress, 0);
            for (int r = 0; r < runs; r++) {
                long runOffsets = offsetsAddress + ((long) starts[r] << 2);
                int first = MemoryUtil.getInt(runOffsets);
                int last = MemoryUtil.getInt(runOffsets + ((long) lengths[r] << 2));
                MemoryUtil.copyMemory(dataAddress + first, targetDataAddress + end, last - first);
                // the run's offsets, moved from where its bytes began to where they now begin
                int shift = end - first;
                for (int j = 1; j <= lengths[r]; j++) {
                    MemoryUtil.putInt(targetOffsetsAddress + ((long) (out + j) << 2), MemoryUtil.getInt(runOffsets + ((long) j << 2)) + shift);
                }
                end += last - first;
                out += lengths[r];
            }
            copyValidity(source, target.getValidityBuffer());
            target.setLastSet(count - 1);
            target.setValueCount(count);
            return target;
        } catch (RuntimeException e) {
            target.close();
            throw e;
        }
    }

    private void copyValidity(FieldVector source, ArrowBuf target) {
        if (source.getNullCount() == 0) {
            Filter.setValid(target, count);
            return;
        }
        ArrowBuf validity = source.getValidityBuffer();
        int out = 0;
        for (int r = 0; r < runs; r++) {
            for (int row = starts[r], end = starts[r] + lengths[r]; row < end; row++, out++) {
                if (BitVectorHelper.get(validity, row) != 0) {
                    BitVectorHelper.setBit(target, out);
                }
            }
        }
    }
}
