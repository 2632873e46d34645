package dev.quiver.engine.operator.window;

import org.apache.arrow.vector.FieldVector;

/**
 * The rows of a chunk whose value is not NULL, for {@code IGNORE NULLS}: their positions in order,
 * and for each row how many such rows come before it, so that "the k-th non-NULL row after row r"
 * is one array read.
 */
final class NonNullRows {
    private final int[] positions;
    private final int[] before;

    NonNullRows(FieldVector values) {
        int rows = values.getValueCount();
        before = new int[rows + 1];
        int count = 0;
        for (int i = 0; i < rows; i++) {
            before[i] = count;
            if (!values.isNull(i)) {
                count++;
            }
        }
        before[rows] = count;
        positions = new int[count];
        for (int i = 0, k = 0; i < rows; i++) {
            if (!values.isNull(i)) {
                positions[k++] = i;
            }
        }
    }

    static long estimateBytes(int rows) {
        return 8L * rows;
    }

    /** Non-NULL rows in {@code [0, row)}. */
    int countBefore(int row) {
        return before[row];
    }

    /** The row of the {@code index}-th non-NULL row (from 0). */
    int position(int index) {
        return positions[index];
    }
}
