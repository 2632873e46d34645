package dev.quiver.engine.batch;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.BitVectorHelper;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The gather kernel of filters: copies the selected rows of a batch, given as ascending positions,
 * into new vectors ({@code FilterExec} finds the positions).
 */
public final class Filter {
    private Filter() {}

    /**
     * Rows {@code indices[0..count)} of {@code batch} (ascending), as a new batch the caller owns;
     * {@code batch} is left untouched.
     */
    public static VectorSchemaRoot gatherRows(VectorSchemaRoot batch, int[] indices, int count, BufferAllocator allocator) {
        List<FieldVector> vectors = new ArrayList<>(batch.getFieldVectors().size());
        RunGather runs = RunGather.of(indices, count);
        try {
            for (FieldVector vector : batch.getFieldVectors()) {
                if (runs != null && isFixedWidth(vector)) {
                    vectors.add(runs.fixed((BaseFixedWidthVector) vector, allocator));
                } else if (runs != null && vector instanceof VarCharVector strings) {
                    vectors.add(runs.strings(strings, allocator));
                } else {
                    vectors.add(gather(vector, indices, count, allocator));
                }
            }
        } catch (RuntimeException e) {
            vectors.forEach(FieldVector::close);
            throw e;
        }
        return new VectorSchemaRoot(batch.getSchema().getFields(), vectors, count);
    }

    /**
     * Rows {@code indices[0..count)} of {@code source} (all valid, ascending): fixed-width values
     * and strings are copied buffer to buffer; other vectors go through {@link Take}.
     */
    public static FieldVector gather(FieldVector source, int[] indices, int count, BufferAllocator allocator) {
        if (isFixedWidth(source)) {
            return gatherFixed((BaseFixedWidthVector) source, indices, count, allocator);
        }
        if (source instanceof VarCharVector strings) {
            return gatherStrings(strings, indices, count, allocator);
        }
        return Take.take(source, indices, count, allocator);
    }

    private static FieldVector gatherFixed(BaseFixedWidthVector source, int[] indices, int count, BufferAllocator allocator) {
        BaseFixedWidthVector target = (BaseFixedWidthVector) source.getField().createVector(allocator);
        try {
            // every value in [0, count) is copied below
            OverwriteAllocation.allocate(target, count);
            int width = source.getTypeWidth();
            ArrowBuf from = source.getDataBuffer();
            ArrowBuf to = target.getDataBuffer();
            checkGather(from, to, indices, count, width);
            // bounds are checked once above, so the loops read and write the buffers' memory
            // directly instead of paying ArrowBuf's per-access check
            long src = from.memoryAddress();
            long dst = to.memoryAddress();
            switch (width) {
                case 4 -> {
                    for (int k = 0; k < count; k++) {
                        MemoryUtil.putInt(dst + (long) k * 4, MemoryUtil.getInt(src + (long) indices[k] * 4));
                    }
                }
                case 8 -> {
                    for (int k = 0; k < count; k++) {
                        MemoryUtil.putLong(dst + (long) k * 8, MemoryUtil.getLong(src + (long) indices[k] * 8));
                    }
                }
                case 16 -> {
                    for (int k = 0; k < count; k++) {
                        long offset = src + (long) indices[k] * 16;
                        long target16 = dst + (long) k * 16;
                        MemoryUtil.putLong(target16, MemoryUtil.getLong(offset));
                        MemoryUtil.putLong(target16 + 8, MemoryUtil.getLong(offset + 8));
                    }
                }
                default -> {
                    for (int k = 0; k < count; k++) {
                        to.setBytes((long) k * width, from, (long) indices[k] * width, width);
                    }
                }
            }
            copyValidity(source, target.getValidityBuffer(), indices, count);
            target.setValueCount(count);
            return target;
        } catch (RuntimeException e) {
            target.close();
            throw e;
        }
    }

    /** Checks that every gathered value lies inside {@code from} and the {@code count} values fit {@code to}. */
    private static void checkGather(ArrowBuf from, ArrowBuf to, int[] indices, int count, int width) {
        if (count == 0) {
            return;
        }
        int max = 0;
        for (int k = 0; k < count; k++) {
            max = Math.max(max, indices[k]);
        }
        if ((long) (max + 1) * width > from.capacity() || (long) count * width > to.capacity()) {
            throw new IndexOutOfBoundsException("gather of " + count + " values up to index " + max + " (width " + width
                    + ") outside buffers of " + from.capacity() + " and " + to.capacity() + " bytes");
        }
    }

    private static FieldVector gatherStrings(VarCharVector source, int[] indices, int count, BufferAllocator allocator) {
        VarCharVector target = (VarCharVector) source.getField().createVector(allocator);
        try {
            ArrowBuf offsets = source.getOffsetBuffer();
            ArrowBuf data = source.getDataBuffer();
            long dataCapacity = data.capacity();
            long bytes = 0;
            for (int k = 0; k < count; k++) {
                long offset = (long) indices[k] * 4;
                int start = offsets.getInt(offset);
                int end = offsets.getInt(offset + 4);
                if (start < 0 || end < start || end > dataCapacity) {
                    throw new IndexOutOfBoundsException("string " + indices[k] + " at [" + start + ", " + end + ") outside "
                            + dataCapacity + " bytes");
                }
                bytes += end - start;
            }
            // the sizing loop above read every gathered offset through ArrowBuf's checks and checked the
            // strings against the data buffer, so the copy below uses addresses
            allocateStrings(target, count, bytes);
            ArrowBuf targetOffsets = target.getOffsetBuffer();
            ArrowBuf targetData = target.getDataBuffer();
            long offsetsAddress = offsets.memoryAddress();
            long dataAddress = data.memoryAddress();
            long targetOffsetsAddress = targetOffsets.memoryAddress();
            long targetDataAddress = targetData.memoryAddress();
            int end = 0;
            MemoryUtil.putInt(targetOffsetsAddress, 0);
            for (int k = 0; k < count; k++) {
                long offset = offsetsAddress + (long) indices[k] * 4;
                int start = MemoryUtil.getInt(offset);
                int length = MemoryUtil.getInt(offset + 4) - start;
                if (length <= 16) {
                    // short strings (flags, codes): a byte loop beats a copyMemory call
                    for (int b = 0; b < length; b++) {
                        MemoryUtil.putByte(targetDataAddress + end + b, MemoryUtil.getByte(dataAddress + start + b));
                    }
                } else {
                    MemoryUtil.copyMemory(dataAddress + start, targetDataAddress + end, length);
                }
                end += length;
                MemoryUtil.putInt(targetOffsetsAddress + (long) (k + 1) * 4, end);
            }
            copyValidity(source, target.getValidityBuffer(), indices, count);
            target.setLastSet(count - 1);
            target.setValueCount(count);
            return target;
        } catch (RuntimeException e) {
            target.close();
            throw e;
        }
    }

    /** Whether {@code vector} holds values of a whole number of bytes each, which the gathers copy as bytes. */
    private static boolean isFixedWidth(FieldVector vector) {
        return vector instanceof BaseFixedWidthVector fixed && !(vector instanceof BitVector) && fixed.getTypeWidth() > 0;
    }

    /** Allocates {@code target} for {@code count} strings of {@code bytes} in all, and checks that they fit, so that copies can go by address. */
    static void allocateStrings(VarCharVector target, int count, long bytes) {
        target.allocateNew(Math.max(bytes, 1), Math.max(count, 1));
        if ((long) (count + 1) * 4 > target.getOffsetBuffer().capacity() || bytes > target.getDataBuffer().capacity()) {
            throw new IndexOutOfBoundsException("gather of " + count + " strings (" + bytes + " bytes) beyond the target's buffers");
        }
    }

    /** Marks the first {@code count} values of {@code target} valid. */
    static void setValid(ArrowBuf target, int count) {
        int fullBytes = count >> 3;
        target.setOne(0, fullBytes);
        for (int k = fullBytes << 3; k < count; k++) {
            BitVectorHelper.setBit(target, k);
        }
    }

    private static void copyValidity(FieldVector source, ArrowBuf target, int[] indices, int count) {
        if (source.getNullCount() == 0) {
            setValid(target, count);
            return;
        }
        for (int k = 0; k < count; k++) {
            if (!source.isNull(indices[k])) {
                BitVectorHelper.setBit(target, k);
            }
        }
    }
}
