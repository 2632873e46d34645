package dev.quiver.cli.format;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The rows a table shows of a result of any size: all of them when there are at most
 * {@code maxRows}, else the first {@code ceil(maxRows/2)} and the last {@code floor(maxRows/2)},
 * as DuckDB does. It holds at most {@code maxRows} rows however many pass through, and counts them
 * all.
 */
final class RowSample {
    private final int maxRows;
    private final List<List<Object>> first = new ArrayList<>();
    private final ArrayDeque<List<Object>> last = new ArrayDeque<>();
    private final int lastCapacity;
    private long count;

    /** {@code maxRows} 0 keeps every row. */
    RowSample(int maxRows) {
        if (maxRows < 0) {
            throw new IllegalArgumentException("maxRows must not be negative: " + maxRows);
        }
        this.maxRows = maxRows;
        this.lastCapacity = maxRows / 2;
    }

    void add(List<Object> row) {
        count++;
        if (maxRows == 0 || first.size() < maxRows) {
            first.add(row);
            return;
        }
        if (lastCapacity == 0) {
            return;
        }
        if (last.size() == lastCapacity) {
            last.removeFirst();
        }
        last.addLast(row);
    }

    /** Every row that passed through. */
    long count() {
        return count;
    }

    /** Whether rows were left out between {@link #head()} and {@link #tail()}. */
    boolean elided() {
        return maxRows > 0 && count > maxRows;
    }

    /** The first rows shown: all of them when nothing was left out. */
    List<List<Object>> head() {
        if (!elided()) {
            return Collections.unmodifiableList(first);
        }
        return Collections.unmodifiableList(first.subList(0, maxRows - lastCapacity));
    }

    /** The last rows shown after the gap; empty when nothing was left out. */
    List<List<Object>> tail() {
        if (!elided()) {
            return List.of();
        }
        // the ring holds the last rows seen after the first maxRows; when fewer came after them,
        // the end of the first rows completes the tail
        List<List<Object>> tail = new ArrayList<>(lastCapacity);
        int fromFirst = lastCapacity - last.size();
        tail.addAll(first.subList(first.size() - fromFirst, first.size()));
        tail.addAll(last);
        return tail;
    }
}
