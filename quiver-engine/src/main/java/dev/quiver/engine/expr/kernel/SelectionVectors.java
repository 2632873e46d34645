package dev.quiver.engine.expr.kernel;

import java.nio.charset.StandardCharsets;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.util.MemoryUtil;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;

/**
 * Kernels that narrow a selection vector: the ascending positions of a batch's rows that are still
 * selected. Each keeps the positions whose row passes a test and returns how many it kept,
 * writing them to the front of {@code positions} in place. With {@code dense}, the selection is
 * every row {@code [0, count)} and {@code positions} is only written. A row whose tested value is
 * NULL never passes, as in a WHERE clause.
 *
 * <p>The loops write every position and advance the output by the test's 0 or 1 instead of
 * branching on whether the row passes.
 */
public final class SelectionVectors {
    private SelectionVectors() {}

    /**
     * Keeps the rows whose value in {@code vector} (integers of {@code width} bytes, as
     * {@link LongRange#directWidth} gives) passes {@code range}.
     */
    public static int keepInRange(FieldVector vector, int width, LongRange range, int[] positions, int count, boolean dense) {
        if (range.none() || count == 0) {
            return 0;
        }
        checkRows(vector, positions, count, dense, (long) width);
        long address = vector.getDataBuffer().memoryAddress();
        long low = range.low();
        // inside [low, high] is one unsigned comparison: v - low <= high - low
        long span = (range.high() - low) + Long.MIN_VALUE;
        boolean outside = range.outside();
        int shift = Integer.numberOfTrailingZeros(width);
        int kept = 0;
        if (width == 4) {
            for (int k = 0; k < count; k++) {
                int row = dense ? k : positions[k];
                long v = MemoryUtil.getInt(address + ((long) row << 2));
                positions[kept] = row;
                kept += ((v - low) + Long.MIN_VALUE <= span) != outside ? 1 : 0;
            }
        } else {
            for (int k = 0; k < count; k++) {
                int row = dense ? k : positions[k];
                long v = MemoryUtil.getLong(address + ((long) row << shift));
                positions[kept] = row;
                kept += ((v - low) + Long.MIN_VALUE <= span) != outside ? 1 : 0;
            }
        }
        return vector.getNullCount() == 0 ? kept : keepValid(vector, positions, kept);
    }

    /**
     * Keeps the rows whose value in {@code vector} (integers of {@code width} bytes, as
     * {@link LongRange#directWidth} gives) is one of {@code sorted}.
     */
    public static int keepLongIn(FieldVector vector, int width, long[] sorted, int[] positions, int count, boolean dense) {
        if (sorted.length == 0 || count == 0) {
            return 0;
        }
        checkRows(vector, positions, count, dense, (long) width);
        long address = vector.getDataBuffer().memoryAddress();
        int shift = Integer.numberOfTrailingZeros(width);
        int kept = 0;
        for (int k = 0; k < count; k++) {
            int row = dense ? k : positions[k];
            long v = width == 4 ? MemoryUtil.getInt(address + ((long) row << 2)) : MemoryUtil.getLong(address + ((long) row << shift));
            positions[kept] = row;
            kept += InListKernels.contains(sorted, v) ? 1 : 0;
        }
        return vector.getNullCount() == 0 ? kept : keepValid(vector, positions, kept);
    }

    /**
     * Keeps the rows whose string in {@code vector} is one of {@code constants} (UTF-8 bytes), or
     * with {@code negate} is none of them.
     */
    public static int keepStringIn(VarCharVector vector, byte[][] constants, boolean negate, int[] positions, int count, boolean dense) {
        if ((constants.length == 0 && !negate) || count == 0) {
            return 0;
        }
        ArrowBuf offsets = vector.getOffsetBuffer();
        int last = dense ? count - 1 : positions[count - 1];
        if ((long) (last + 2) * 4 > offsets.capacity()) {
            throw new IndexOutOfBoundsException("string " + last + " beyond the offsets of " + offsets.capacity() + " bytes");
        }
        long offsetsAddress = offsets.memoryAddress();
        long dataAddress = vector.getDataBuffer().memoryAddress();
        long dataCapacity = vector.getDataBuffer().capacity();
        int kept = 0;
        for (int k = 0; k < count; k++) {
            int row = dense ? k : positions[k];
            long at = offsetsAddress + ((long) row << 2);
            int start = MemoryUtil.getInt(at);
            int end = MemoryUtil.getInt(at + 4);
            boolean found = false;
            if (start >= 0 && end <= dataCapacity) {
                for (byte[] constant : constants) {
                    if (constant.length == end - start && bytesEqual(dataAddress + start, constant)) {
                        found = true;
                        break;
                    }
                }
            }
            positions[kept] = row;
            kept += found != negate ? 1 : 0;
        }
        return vector.getNullCount() == 0 ? kept : keepValid(vector, positions, kept);
    }

    /** {@code constant} as the UTF-8 bytes {@link #keepStringIn} compares. */
    public static byte[] utf8(String constant) {
        return constant.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Keeps the rows whose BOOLEAN is TRUE (not FALSE, not NULL); {@code bits} holds one value per
     * row of the batch, or with {@code bitsPerPosition} one per selected position, in order.
     */
    public static int keepTrue(BitVector bits, boolean bitsPerPosition, int[] positions, int count, boolean dense) {
        ArrowBuf values = bits.getDataBuffer();
        ArrowBuf validity = bits.getValidityBuffer();
        int last = bitsPerPosition || dense ? count - 1 : (count == 0 ? -1 : positions[count - 1]);
        if (last >= 0 && ((long) (last >> 3) + 1 > values.capacity() || (long) (last >> 3) + 1 > validity.capacity())) {
            throw new IndexOutOfBoundsException("row " + last + " beyond a BOOLEAN of " + values.capacity() + " bytes");
        }
        long valuesAddress = values.memoryAddress();
        long validityAddress = validity.memoryAddress();
        int kept = 0;
        for (int k = 0; k < count; k++) {
            int row = dense ? k : positions[k];
            int bit = bitsPerPosition ? k : row;
            int truth = MemoryUtil.getByte(valuesAddress + (bit >> 3)) & MemoryUtil.getByte(validityAddress + (bit >> 3));
            positions[kept] = row;
            kept += (truth >> (bit & 7)) & 1;
        }
        return kept;
    }

    /** Drops the positions whose row is NULL in {@code vector}. */
    private static int keepValid(FieldVector vector, int[] positions, int count) {
        ArrowBuf validity = vector.getValidityBuffer();
        int kept = 0;
        for (int k = 0; k < count; k++) {
            int row = positions[k];
            positions[kept] = row;
            kept += (validity.getByte(row >> 3) >> (row & 7)) & 1;
        }
        return kept;
    }

    private static boolean bytesEqual(long address, byte[] constant) {
        for (int b = 0; b < constant.length; b++) {
            if (MemoryUtil.getByte(address + b) != constant[b]) {
                return false;
            }
        }
        return true;
    }

    /** Checks once that the last selected row's value lies inside the buffer, so the loops read memory unchecked. */
    private static void checkRows(FieldVector vector, int[] positions, int count, boolean dense, long width) {
        int last = dense ? count - 1 : positions[count - 1];
        long capacity = vector.getDataBuffer().capacity();
        if ((last + 1L) * width > capacity) {
            throw new IndexOutOfBoundsException("row " + last + " of " + width + " bytes beyond a buffer of " + capacity + " bytes");
        }
    }
}
