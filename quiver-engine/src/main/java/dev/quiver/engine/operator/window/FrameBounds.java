package dev.quiver.engine.operator.window;

/**
 * The frame of every row of a chunk, as {@code [start, end)} rows (empty when {@code end <= start}),
 * and the ranges a frame has once its {@link WindowFrame.Exclusion} is taken out: at most three,
 * in row order.
 */
final class FrameBounds {
    /** The most ranges one frame splits into (EXCLUDE TIES: before the peers, the row, after them). */
    static final int MAX_RANGES = 3;

    private final WindowFrame frame;
    private final PartitionLayout layout;
    private final int[] starts;
    private final int[] ends;

    private FrameBounds(WindowFrame frame, PartitionLayout layout) {
        this.frame = frame;
        this.layout = layout;
        this.starts = new int[layout.rows()];
        this.ends = new int[layout.rows()];
    }

    static long estimateBytes(int rows) {
        return 8L * rows;
    }

    /** The frames of every row; {@code keys} holds the ORDER BY key when a RANGE bound has an offset (else null). */
    static FrameBounds compute(WindowFrame frame, PartitionLayout layout, RangeKeys keys) {
        FrameBounds bounds = new FrameBounds(frame, layout);
        RangeSearch range = keys == null ? null : new RangeSearch(layout, keys);
        for (int row = 0; row < layout.rows(); row++) {
            int partitionStart = layout.partitionStart(row);
            int partitionEnd = layout.partitionEnd(row);
            int start = clamp(bounds.bound(frame.start(), false, row, range), partitionStart, partitionEnd);
            int end = clamp(bounds.bound(frame.end(), true, row, range), partitionStart, partitionEnd);
            bounds.starts[row] = start;
            bounds.ends[row] = Math.max(start, end);
        }
        return bounds;
    }

    int start(int row) {
        return starts[row];
    }

    int end(int row) {
        return ends[row];
    }

    /** Whether every frame starts at its partition's first row and excludes nothing (running and whole-partition frames). */
    boolean startsAtPartitionStart() {
        return frame.start().kind() == FrameBound.Kind.UNBOUNDED_PRECEDING && frame.exclusion() == WindowFrame.Exclusion.NO_OTHERS;
    }

    /** The widest frame of any row. */
    int maxWidth() {
        int max = 0;
        for (int row = 0; row < starts.length; row++) {
            max = Math.max(max, ends[row] - starts[row]);
        }
        return max;
    }

    /** The sum of the frame sizes of every row (exclusions not taken out): the rows a frame-by-frame scan would read. */
    long totalWidth() {
        return totalWidth(0, starts.length);
    }

    /** The sum of the frame sizes of rows {@code [from, from + count)}, exclusions not taken out. */
    long totalWidth(int from, int count) {
        long total = 0;
        for (int row = from; row < from + count; row++) {
            total += ends[row] - starts[row];
        }
        return total;
    }

    /** Whether rows {@code a} and {@code b} see the same rows. */
    boolean sameRows(int a, int b) {
        if (starts[a] != starts[b] || ends[a] != ends[b]) {
            return false;
        }
        return switch (frame.exclusion()) {
            case NO_OTHERS -> true;
            case GROUP -> layout.peerOf(a) == layout.peerOf(b);
            case CURRENT_ROW, TIES -> a == b;
        };
    }

    /**
     * Writes the ranges of row {@code row}'s frame, exclusion taken out, to {@code out} as
     * {@code start, end} pairs (each non-empty, in row order); returns how many.
     */
    int ranges(int row, int[] out) {
        int start = starts[row];
        int end = ends[row];
        if (start >= end) {
            return 0;
        }
        return switch (frame.exclusion()) {
            case NO_OTHERS -> put(out, 0, start, end);
            case CURRENT_ROW -> without(out, start, end, row, row + 1);
            case GROUP -> without(out, start, end, layout.peerStart(row), layout.peerEnd(row));
            case TIES -> {
                int count = put(out, 0, start, Math.min(end, layout.peerStart(row)));
                count += put(out, count, Math.max(start, row), Math.min(end, row + 1));
                yield count + put(out, count, Math.max(start, layout.peerEnd(row)), end);
            }
        };
    }

    private static int without(int[] out, int start, int end, int excludedStart, int excludedEnd) {
        int count = put(out, 0, start, Math.min(end, excludedStart));
        return count + put(out, count, Math.max(start, excludedEnd), end);
    }

    private static int put(int[] out, int index, int start, int end) {
        if (start >= end) {
            return 0;
        }
        out[2 * index] = start;
        out[2 * index + 1] = end;
        return 1;
    }

    private static int clamp(long value, int low, int high) {
        return (int) Math.max(low, Math.min(high, value));
    }

    /** Where {@code bound} puts the frame's start ({@code end} false) or exclusive end, before clamping to the partition. */
    private long bound(FrameBound bound, boolean end, int row, RangeSearch range) {
        switch (bound.kind()) {
            case UNBOUNDED_PRECEDING:
                return layout.partitionStart(row);
            case UNBOUNDED_FOLLOWING:
                return layout.partitionEnd(row);
            case CURRENT_ROW:
                if (frame.units() == WindowFrame.Units.ROWS) {
                    return end ? row + 1L : row;
                }
                return end ? layout.peerEnd(row) : layout.peerStart(row);
            default:
                break;
        }
        return switch (frame.units()) {
            case ROWS -> rowsBound(bound, end, row);
            case GROUPS -> groupsBound(bound, end, row);
            case RANGE -> range.bound(bound, end, row);
        };
    }

    private static long rowsBound(FrameBound bound, boolean end, int row) {
        long n = ((FrameOffset.Count) bound.offset().orElseThrow()).value();
        long target = bound.kind() == FrameBound.Kind.PRECEDING ? row - n : row + Math.min(n, Integer.MAX_VALUE);
        return end ? target + 1 : target;
    }

    private long groupsBound(FrameBound bound, boolean end, int row) {
        long n = ((FrameOffset.Count) bound.offset().orElseThrow()).value();
        int firstGroup = layout.peerOf(layout.partitionStart(row));
        int lastGroup = layout.peerOf(layout.partitionEnd(row) - 1);
        long group = bound.kind() == FrameBound.Kind.PRECEDING ? layout.peerOf(row) - n : layout.peerOf(row) + Math.min(n, Integer.MAX_VALUE);
        if (group < firstGroup) {
            return layout.partitionStart(row);
        }
        if (group > lastGroup) {
            return layout.partitionEnd(row);
        }
        return layout.peerStartOf((int) group + (end ? 1 : 0));
    }

    /** RANGE bounds with offsets: searches among the non-NULL keys of the row's partition. */
    private static final class RangeSearch {
        private final PartitionLayout layout;
        private final RangeKeys keys;
        /** Per partition, its rows with a non-NULL key: [nonNullStart, nonNullEnd). */
        private final int[] nonNullStart;
        private final int[] nonNullEnd;

        RangeSearch(PartitionLayout layout, RangeKeys keys) {
            this.layout = layout;
            this.keys = keys;
            int partitions = layout.partitionCount();
            nonNullStart = new int[partitions];
            nonNullEnd = new int[partitions];
            for (int p = 0; p < partitions; p++) {
                int from = layout.partitionStartOf(p);
                int to = layout.partitionStartOf(p + 1);
                // NULLs are together at one end of the partition
                while (from < to && keys.isNull(from)) {
                    from++;
                }
                while (to > from && keys.isNull(to - 1)) {
                    to--;
                }
                nonNullStart[p] = from;
                nonNullEnd[p] = to;
            }
        }

        long bound(FrameBound bound, boolean end, int row) {
            if (keys.isNull(row)) {
                return end ? layout.peerEnd(row) : layout.peerStart(row);
            }
            int p = layout.partitionOf(row);
            return keys.search(row, bound, end, nonNullStart[p], nonNullEnd[p]);
        }
    }
}
