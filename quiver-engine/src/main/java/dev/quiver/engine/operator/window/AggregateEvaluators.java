package dev.quiver.engine.operator.window;

import dev.quiver.engine.batch.Take;
import dev.quiver.engine.operator.aggregate.AggregateExpr;
import dev.quiver.engine.operator.aggregate.AggregateFunction;
import dev.quiver.engine.operator.aggregate.FirstOccurrences;
import dev.quiver.engine.operator.aggregate.GroupAccumulator;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Chooses how an aggregate over a frame is computed. All use the engine's aggregate accumulators
 * ({@link GroupAccumulator}); none re-implements an aggregate function.
 *
 * <ul>
 * <li>An aggregate with partial states: {@link SegmentTreeAggregate}, O(log frame) merges per
 *     row — unless the frames are narrow (a few rows per row on average: running aggregates over
 *     small partitions, short sliding frames), where feeding each frame's rows costs less.</li>
 * <li>DISTINCT over frames that start at the partition's first row (the default frame, running
 *     and whole-partition frames): the same, over the argument with every value that already
 *     appeared earlier in the partition made NULL — a value is in such a frame exactly when its
 *     first occurrence is.</li>
 * <li>Otherwise (narrow frames, DISTINCT over sliding frames, aggregates without partial states
 *     or with sketches as states): {@link FrameScanAggregate}, which feeds every row of every
 *     distinct frame to the accumulator.</li>
 * </ul>
 */
final class AggregateEvaluators {
    /**
     * Frame rows per output row up to which a frame scan is used instead of a segment tree. Measured
     * on running sums of a decimal over partitions of 1 to N rows (WindowExec alone): the scan took
     * 0.65x the tree's time at about 3 frame rows per row, 0.8x at 5, and 1.8x at 9.
     */
    static final int SCAN_ROWS_PER_ROW = 4;

    private AggregateEvaluators() {}

    static WindowEvaluator create(AggregateExpr aggregate, FrameBounds frames, WindowChunk chunk, Field field) {
        List<FieldVector> inputs = aggregate.inputs().stream().map(chunk::column).toList();
        if (!aggregate.distinct()) {
            return inTree(aggregate) && !narrow(frames, chunk)
                    ? new SegmentTreeAggregate(aggregate, inputs, frames, chunk, field)
                    : new FrameScanAggregate(aggregate, inputs, frames, chunk, field);
        }
        AggregateExpr plain = new AggregateExpr(aggregate.function(), aggregate.args(), false, aggregate.name(), aggregate.type(),
                aggregate.orderBy(), aggregate.parameters());
        if (frames.startsAtPartitionStart() && inTree(plain) && inputs.size() == 1) {
            FieldVector firsts = firstOccurrences(inputs.get(0), chunk);
            return new SegmentTreeAggregate(plain, List.of(firsts), frames, chunk, field);
        }
        return new FrameScanAggregate(aggregate, inputs, frames, chunk, field);
    }

    /**
     * Whether a segment tree can compute the aggregate: it needs partial states (not the holistic
     * percentiles, MODE, STRING_AGG), and small ones — a sketch (APPROX_QUANTILE's t-digest,
     * APPROX_COUNT_DISTINCT's registers) in every upper node would hold kilobytes per few rows.
     */
    private static boolean inTree(AggregateExpr aggregate) {
        return GroupAccumulator.hasPartialState(aggregate) && aggregate.function() != AggregateFunction.APPROX_QUANTILE
                && aggregate.function() != AggregateFunction.APPROX_COUNT_DISTINCT;
    }

    /**
     * Whether the frames are so narrow that feeding every row of every frame to one accumulator
     * costs less than building and querying a segment tree (about one partial state per row per
     * level, then a gather and a merge per level and output row): true when the frames hold at
     * most {@link #SCAN_ROWS_PER_ROW} rows per row on average, as in running sums over small
     * partitions or short sliding frames.
     */
    private static boolean narrow(FrameBounds frames, WindowChunk chunk) {
        return frames.totalWidth() <= (long) SCAN_ROWS_PER_ROW * chunk.rows();
    }

    /** {@code arg} with each value that appeared before in its partition made NULL; owned by the chunk's reservation. */
    private static FieldVector firstOccurrences(FieldVector arg, WindowChunk chunk) {
        int rows = chunk.rows();
        long scratch = FirstOccurrences.bytesFor(rows, arg.getField().getType());
        chunk.reserveTransient(scratch);
        int[] indices = new int[rows];
        try {
            boolean[] first = FirstOccurrences.firstOccurrences(chunk.layout().partitionIds(), arg, rows);
            for (int i = 0; i < rows; i++) {
                indices[i] = first[i] ? i : -1;
            }
        } finally {
            chunk.release(scratch);
        }
        FieldVector masked = Take.take(arg, indices, rows, chunk.allocator());
        return chunk.own(masked);
    }
}
