package dev.quiver.engine.batch;

import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The filter kernel: keeps the rows of a batch whose selection value is TRUE (FALSE and NULL drop
 * the row), as SQL WHERE does.
 */
public final class Filter {
    private Filter() {}

    /** How many of the first {@code rows} selection values are TRUE and not NULL. */
    public static int countSelected(BitVector selection, int rows) {
        ArrowBuf values = selection.getDataBuffer();
        ArrowBuf validity = selection.getValidityBuffer();
        int count = 0;
        int fullWords = rows / 64;
        for (int w = 0; w < fullWords; w++) {
            long offset = (long) w * 8;
            count += Long.bitCount(values.getLong(offset) & validity.getLong(offset));
        }
        for (int i = fullWords * 64; i < rows; i++) {
            if (isSelected(values, validity, i)) {
                count++;
            }
        }
        return count;
    }

    /** The positions of the TRUE rows, in order; {@code count} must be {@link #countSelected}. */
    public static int[] selectedIndices(BitVector selection, int rows, int count) {
        ArrowBuf values = selection.getDataBuffer();
        ArrowBuf validity = selection.getValidityBuffer();
        int[] indices = new int[count];
        int next = 0;
        int fullWords = rows / 64;
        for (int w = 0; w < fullWords; w++) {
            long offset = (long) w * 8;
            long word = values.getLong(offset) & validity.getLong(offset);
            while (word != 0) {
                indices[next++] = w * 64 + Long.numberOfTrailingZeros(word);
                word &= word - 1;
            }
        }
        for (int i = fullWords * 64; i < rows; i++) {
            if (isSelected(values, validity, i)) {
                indices[next++] = i;
            }
        }
        return indices;
    }

    /**
     * The rows of {@code batch} selected by {@code selection}, as a new batch the caller owns;
     * {@code batch} is left untouched.
     */
    public static VectorSchemaRoot filter(VectorSchemaRoot batch, BitVector selection, BufferAllocator allocator) {
        int rows = batch.getRowCount();
        int count = countSelected(selection, rows);
        int[] indices = selectedIndices(selection, rows, count);
        return Take.take(batch, indices, count, allocator);
    }

    private static boolean isSelected(ArrowBuf values, ArrowBuf validity, int index) {
        long byteIndex = index >> 3;
        int bit = 1 << (index & 7);
        return (values.getByte(byteIndex) & validity.getByte(byteIndex) & bit) != 0;
    }
}
