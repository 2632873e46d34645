package dev.quiver.cli.format;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Which columns of a table fit a terminal line, and how wide each may be, the way DuckDB's table
 * output fits them: when the natural widths are too wide, columns wider than a cap are shortened
 * (their values cut with {@code ...}), and if that is not enough the middle columns give way to one
 * {@code ...} column, keeping the outer ones (first, last, second, second to last, ...).
 *
 * <p>A line is {@code " v1 | v2 | v3"}: each column takes its width plus a blank on each side, and
 * a {@code |} stands between two columns.
 *
 * @param shown the indices of the columns shown, ascending
 * @param elidedAfter the index in {@code shown} after which the {@code ...} column stands, or -1 when every column is shown
 * @param widths the width of each column (by column index, not by position in {@code shown})
 */
record ColumnFit(List<Integer> shown, int elidedAfter, int[] widths) {
    static final String ELLIPSIS = "...";
    /** No column is cut below this width, so that a column keeps a readable prefix of its values. */
    private static final int MIN_CAP = 16;

    /** The fit of columns of {@code natural} widths into lines of at most {@code maxWidth} characters (0: no limit). */
    static ColumnFit of(int[] natural, int maxWidth) {
        List<Integer> all = new ArrayList<>();
        for (int i = 0; i < natural.length; i++) {
            all.add(i);
        }
        if (maxWidth == 0 || natural.length <= 1 || lineWidth(natural, all) <= maxWidth) {
            return new ColumnFit(all, -1, natural.clone());
        }
        int cap = Math.max(MIN_CAP, maxWidth / 3);
        int[] capped = Arrays.stream(natural).map(w -> Math.min(w, cap)).toArray();
        if (lineWidth(capped, all) <= maxWidth) {
            return new ColumnFit(all, -1, capped);
        }
        return elideMiddle(capped, maxWidth);
    }

    /** Adds the outer columns first, alternating between the left and the right end, while they fit beside a {@code ...} column. */
    private static ColumnFit elideMiddle(int[] widths, int maxWidth) {
        List<Integer> left = new ArrayList<>();
        List<Integer> right = new ArrayList<>();
        int low = 0;
        int high = widths.length - 1;
        int used = ELLIPSIS.length() + 2;
        boolean fromLeft = true;
        while (low <= high) {
            int next = fromLeft ? low : high;
            int cost = widths[next] + 3;
            if (used + cost > maxWidth && !(left.isEmpty() && fromLeft)) {
                break;
            }
            used += cost;
            if (fromLeft) {
                left.add(low++);
            } else {
                right.add(0, high--);
            }
            fromLeft = !fromLeft;
        }
        List<Integer> shown = new ArrayList<>(left);
        shown.addAll(right);
        int elidedAfter = shown.size() == widths.length ? -1 : left.size() - 1;
        return new ColumnFit(List.copyOf(shown), elidedAfter, widths);
    }

    private static int lineWidth(int[] widths, List<Integer> columns) {
        int total = 0;
        for (int column : columns) {
            total += widths[column] + 2;
        }
        return total + Math.max(0, columns.size() - 1);
    }

    /** Whether some columns are not shown. */
    boolean elided() {
        return elidedAfter >= 0;
    }
}
