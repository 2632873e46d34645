package dev.quiver.engine.operator.window;

import dev.quiver.engine.batch.Take;
import dev.quiver.engine.operator.aggregate.AggregateExpr;
import dev.quiver.engine.operator.aggregate.AggregateMode;
import dev.quiver.engine.operator.aggregate.GroupAccumulator;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * An aggregate over frames through a segment tree of partial states, as DuckDB's segment tree
 * does: level 0 holds each row's partial state (a PARTIAL accumulator with one group per row),
 * level k+1 merges pairs of level-k nodes (a FINAL accumulator), up to the level whose nodes are as
 * wide as the widest frame. A frame range is covered by at most two nodes per level; each output
 * row's group of a FINAL accumulator merges them, then evaluates.
 *
 * <p>The merges of all output rows run level by level: for each level one gather of the level's
 * states and one {@code merge} call. A row's pieces are merged in row order (the left pieces
 * bottom-up, then the right ones top-down, range after range), so an order-sensitive aggregate
 * sees its frame's rows in order. Consecutive rows with the same frame (peers under RANGE, every
 * row of a partition without ORDER BY) are computed once.
 */
final class SegmentTreeAggregate implements WindowEvaluator {
    private final AggregateExpr aggregate;
    private final FrameBounds frames;
    private final WindowChunk chunk;
    private final Field field;
    /** {@code levels.get(k)}: the partial state columns of the level-k nodes. */
    private final List<List<FieldVector>> levels = new ArrayList<>();
    private final int top;
    private final int[] ranges = new int[2 * FrameBounds.MAX_RANGES];

    /** @param inputs the aggregate's evaluated inputs over the chunk ({@link AggregateExpr#inputs()}) */
    SegmentTreeAggregate(AggregateExpr aggregate, List<FieldVector> inputs, FrameBounds frames, WindowChunk chunk, Field field) {
        this.aggregate = aggregate;
        this.frames = frames;
        this.chunk = chunk;
        this.field = field;
        int rows = chunk.rows();
        this.top = 31 - Integer.numberOfLeadingZeros(Math.max(1, frames.maxWidth()));
        // the state vectors belong to the chunk, which closes them
        levels.add(leafStates(inputs, rows));
        for (int level = 1, nodes = rows; level <= top; level++) {
            levels.add(parentStates(levels.get(level - 1), nodes));
            nodes = (nodes + 1) / 2;
        }
    }

    private List<FieldVector> leafStates(List<FieldVector> inputs, int rows) {
        GroupAccumulator partial = GroupAccumulator.create(aggregate, AggregateMode.PARTIAL, chunk.allocator());
        long accumulatorBytes = (long) partial.bytesPerGroup() * rows;
        chunk.reserveTransient(accumulatorBytes);
        try {
            partial.ensureCapacity(rows);
            int[] groups = new int[rows];
            for (int i = 0; i < rows; i++) {
                groups[i] = i;
            }
            partial.update(groups, rows, inputs);
            return owned(partial.state(0, rows, chunk.allocator()));
        } finally {
            partial.clear();
            chunk.release(accumulatorBytes);
        }
    }

    /** Merges the states of {@code children} nodes pairwise into the next level's. */
    private List<FieldVector> parentStates(List<FieldVector> childStates, int children) {
        int parents = (children + 1) / 2;
        GroupAccumulator merged = GroupAccumulator.create(aggregate, AggregateMode.FINAL, chunk.allocator());
        long accumulatorBytes = (long) merged.bytesPerGroup() * parents;
        chunk.reserveTransient(accumulatorBytes);
        try {
            merged.ensureCapacity(parents);
            int[] groups = new int[children];
            for (int i = 0; i < children; i++) {
                groups[i] = i >> 1;
            }
            merged.merge(groups, children, childStates);
            return owned(merged.state(0, parents, chunk.allocator()));
        } finally {
            merged.clear();
            chunk.release(accumulatorBytes);
        }
    }

    private List<FieldVector> owned(List<FieldVector> states) {
        List<FieldVector> kept = new ArrayList<>(states.size());
        try {
            for (FieldVector state : states) {
                kept.add(chunk.own(state));
            }
            return kept;
        } catch (RuntimeException e) {
            states.subList(kept.size() + 1, states.size()).forEach(FieldVector::close);
            throw e;
        }
    }

    @Override
    public FieldVector evaluate(int from, int count) {
        int[] groupOf = new int[count];
        int[] firstRows = new int[count];
        int groups = 0;
        for (int i = 0; i < count; i++) {
            int row = from + i;
            if (i == 0 || !frames.sameRows(row - 1, row)) {
                firstRows[groups++] = row;
            }
            groupOf[i] = groups - 1;
        }
        GroupAccumulator result = GroupAccumulator.create(aggregate, AggregateMode.FINAL, chunk.allocator());
        long accumulatorBytes = (long) result.bytesPerGroup() * groups;
        chunk.reserveTransient(accumulatorBytes);
        try {
            result.ensureCapacity(groups);
            mergeFrames(result, firstRows, groups);
            FieldVector values = result.evaluate(0, groups, chunk.allocator());
            return ResultVectors.expand(values, groupOf, groups, count, field, chunk.allocator());
        } finally {
            result.clear();
            chunk.release(accumulatorBytes);
        }
    }

    /**
     * Merges into group g the tree nodes covering the frame of row {@code firstRows[g]}. Each frame
     * range splits into pieces (a node range at one level); a piece's round orders it: for range r,
     * the left pieces bottom-up, then the right pieces top-down. Each round is one gather and one
     * merge over all groups, so every group receives its pieces in row order.
     */
    private void mergeFrames(GroupAccumulator result, int[] firstRows, int groups) {
        Pieces pieces = new Pieces(groups * 4);
        for (int g = 0; g < groups; g++) {
            int count = frames.ranges(firstRows[g], ranges);
            for (int r = 0; r < count; r++) {
                decompose(ranges[2 * r], ranges[2 * r + 1], r, g, pieces);
            }
        }
        int roundsPerRange = 2 * (top + 1);
        int[] order = pieces.orderByRound(FrameBounds.MAX_RANGES * roundsPerRange);
        int position = 0;
        while (position < order.length) {
            int round = pieces.round[order[position]];
            int end = position;
            while (end < order.length && pieces.round[order[end]] == round) {
                end++;
            }
            int step = round % roundsPerRange;
            int level = step <= top ? step : roundsPerRange - 1 - step;
            mergeLevel(result, level, pieces, order, position, end);
            position = end;
        }
    }

    /**
     * Splits rows {@code [a, b)} into tree nodes: at each level, the node left of the first whole
     * parent and the node right of the last one; whatever remains at the top level goes left.
     */
    private void decompose(int a, int b, int range, int group, Pieces pieces) {
        int roundsPerRange = 2 * (top + 1);
        int base = range * roundsPerRange;
        for (int level = 0; a < b; level++) {
            int parentsFrom = (a + 1) >> 1;
            int parentsTo = b >> 1;
            if (level == top || parentsFrom >= parentsTo) {
                pieces.add(base + level, group, a, b);
                return;
            }
            pieces.add(base + level, group, a, parentsFrom << 1);
            pieces.add(base + roundsPerRange - 1 - level, group, parentsTo << 1, b);
            a = parentsFrom;
            b = parentsTo;
        }
    }

    /** One gather of level {@code level}'s states and one merge, for pieces {@code order[from, to)}. */
    private void mergeLevel(GroupAccumulator result, int level, Pieces pieces, int[] order, int from, int to) {
        int pairs = 0;
        for (int i = from; i < to; i++) {
            pairs += pieces.nodesTo[order[i]] - pieces.nodesFrom[order[i]];
        }
        int[] nodes = new int[pairs];
        int[] targets = new int[pairs];
        int k = 0;
        for (int i = from; i < to; i++) {
            int piece = order[i];
            for (int node = pieces.nodesFrom[piece]; node < pieces.nodesTo[piece]; node++) {
                nodes[k] = node;
                targets[k++] = pieces.group[piece];
            }
        }
        List<FieldVector> gathered = new ArrayList<>();
        try {
            for (FieldVector state : levels.get(level)) {
                gathered.add(Take.take(state, nodes, pairs, chunk.allocator()));
            }
            result.merge(targets, pairs, gathered);
        } finally {
            gathered.forEach(FieldVector::close);
        }
    }

    /** Non-empty node ranges, each with its round and its group, in growable parallel arrays. */
    private static final class Pieces {
        int[] round;
        int[] group;
        int[] nodesFrom;
        int[] nodesTo;
        int size;

        Pieces(int capacity) {
            round = new int[Math.max(capacity, 16)];
            group = new int[round.length];
            nodesFrom = new int[round.length];
            nodesTo = new int[round.length];
        }

        void add(int pieceRound, int pieceGroup, int from, int to) {
            if (from >= to) {
                return;
            }
            if (size == round.length) {
                int capacity = size * 2;
                round = Arrays.copyOf(round, capacity);
                group = Arrays.copyOf(group, capacity);
                nodesFrom = Arrays.copyOf(nodesFrom, capacity);
                nodesTo = Arrays.copyOf(nodesTo, capacity);
            }
            round[size] = pieceRound;
            group[size] = pieceGroup;
            nodesFrom[size] = from;
            nodesTo[size++] = to;
        }

        /** Piece indices sorted by round (a counting sort; stable). */
        int[] orderByRound(int rounds) {
            int[] starts = new int[rounds + 1];
            for (int i = 0; i < size; i++) {
                starts[round[i] + 1]++;
            }
            for (int r = 0; r < rounds; r++) {
                starts[r + 1] += starts[r];
            }
            int[] order = new int[size];
            for (int i = 0; i < size; i++) {
                order[starts[round[i]]++] = i;
            }
            return order;
        }
    }
}
