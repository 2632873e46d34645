package dev.quiver.engine.operator.aggregate;

import java.util.Arrays;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * The rows a holistic aggregate (a percentile, MODE, STRING_AGG) holds until its groups are
 * evaluated: each gathered row's group id and its input values, in {@link GatheredColumn}s. Rows
 * whose first input (the value) is NULL are not gathered: every holistic function skips them.
 *
 * <p>Evaluation first arranges the rows by group ({@link #arrange}): a stable counting sort that
 * gives each group a contiguous run of row numbers in arrival order, which the function then
 * sorts as it needs. Everything held, including the arrangement's arrays, is counted by
 * {@link #bytes()}, which the owning accumulator reports to the operator's memory reservation.
 */
final class GatheredRows {
    private final GatheredColumn[] columns;
    private int[] groups = new int[0];
    private int size;
    private int[] selected = new int[0];
    /** After {@link #arrange}: group g's rows are {@code order[starts[g], starts[g + 1])}; null when stale. */
    private int[] starts;
    private int[] order;

    GatheredRows(List<ArrowType> types) {
        this.columns = new GatheredColumn[types.size()];
        for (int c = 0; c < columns.length; c++) {
            columns[c] = GatheredColumn.create(types.get(c));
        }
    }

    GatheredColumn column(int index) {
        return columns[index];
    }

    int size() {
        return size;
    }

    /** Gathers rows {@code [0, rows)} of {@code inputs} (one vector per column) whose first input is not NULL. */
    void append(int[] groupIds, int rows, List<FieldVector> inputs) {
        if (selected.length < rows) {
            selected = new int[rows];
        }
        FieldVector values = inputs.get(0);
        int count = 0;
        if (values.getNullCount() == 0) {
            for (int i = 0; i < rows; i++) {
                selected[count++] = i;
            }
        } else {
            for (int i = 0; i < rows; i++) {
                if (!values.isNull(i)) {
                    selected[count++] = i;
                }
            }
        }
        if (count == 0) {
            return;
        }
        if (size + count > groups.length) {
            groups = Arrays.copyOf(groups, (int) Math.min(Integer.MAX_VALUE - 8, Math.max(size + (long) count, 2L * groups.length + 16)));
        }
        for (int i = 0; i < count; i++) {
            groups[size + i] = groupIds[selected[i]];
        }
        for (int c = 0; c < columns.length; c++) {
            columns[c].append(inputs.get(c), rows, selected, count);
        }
        size += count;
        starts = null;
    }

    /**
     * Arranges the rows by group, for groups {@code [0, groupCount)}, unless they are arranged
     * already; afterwards {@link #start} and {@link #row} address each group's rows.
     */
    void arrange(int groupCount) {
        if (starts != null && starts.length == groupCount + 1) {
            return;
        }
        starts = new int[groupCount + 1];
        for (int i = 0; i < size; i++) {
            starts[groups[i] + 1]++;
        }
        for (int g = 0; g < groupCount; g++) {
            starts[g + 1] += starts[g];
        }
        order = new int[size];
        int[] next = Arrays.copyOf(starts, groupCount);
        for (int i = 0; i < size; i++) {
            order[next[groups[i]]++] = i;
        }
    }

    /** Where group {@code g}'s rows start in the arrangement ({@code start(g + 1)} is where they end). */
    int start(int group) {
        return starts[group];
    }

    /** The row at position {@code position} of the arrangement. */
    int row(int position) {
        return order[position];
    }

    /** The arrangement's row numbers, which a function may reorder within a group's run. */
    int[] order() {
        return order;
    }

    /** Bytes held: group ids, the columns and the arrangement (counted before it is built, so that evaluation needs no more). */
    long bytes() {
        long bytes = 4L * groups.length + 4L * selected.length + 4L * size + 4L * size;
        for (GatheredColumn column : columns) {
            bytes += column.bytes();
        }
        return bytes;
    }

    void clear() {
        groups = new int[0];
        size = 0;
        starts = null;
        order = null;
        for (GatheredColumn column : columns) {
            column.clear();
        }
    }
}
