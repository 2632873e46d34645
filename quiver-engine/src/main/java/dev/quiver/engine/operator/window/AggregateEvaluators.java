package dev.quiver.engine.operator.window;

import dev.quiver.engine.batch.Take;
import dev.quiver.engine.operator.aggregate.AggregateExpr;
import dev.quiver.engine.operator.aggregate.FirstOccurrences;
import dev.quiver.engine.operator.aggregate.GroupAccumulator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * Chooses how an aggregate over a frame is computed. All use the engine's aggregate accumulators
 * ({@link GroupAccumulator}); none re-implements an aggregate function.
 *
 * <ul>
 * <li>An aggregate with partial states: {@link SegmentTreeAggregate}, O(log frame) merges per
 *     row.</li>
 * <li>DISTINCT over frames that start at the partition's first row (the default frame, running
 *     and whole-partition frames): the same, over the argument with every value that already
 *     appeared earlier in the partition made NULL — a value is in such a frame exactly when its
 *     first occurrence is.</li>
 * <li>Otherwise (DISTINCT over sliding frames, aggregates without partial states):
 *     {@link FrameScanAggregate}, which feeds every row of every distinct frame to the
 *     accumulator.</li>
 * </ul>
 */
final class AggregateEvaluators {
    private AggregateEvaluators() {}

    static WindowEvaluator create(AggregateExpr aggregate, FrameBounds frames, WindowChunk chunk, Field field) {
        FieldVector arg = aggregate.args().isEmpty() ? null : chunk.column(aggregate.args().get(0));
        if (!aggregate.distinct()) {
            return GroupAccumulator.hasPartialState(aggregate)
                    ? new SegmentTreeAggregate(aggregate, arg, frames, chunk, field)
                    : new FrameScanAggregate(aggregate, arg, frames, chunk, field);
        }
        AggregateExpr plain = new AggregateExpr(aggregate.function(), aggregate.args(), false, aggregate.name(), aggregate.type());
        if (frames.startsAtPartitionStart() && GroupAccumulator.hasPartialState(plain)) {
            FieldVector firsts = firstOccurrences(arg, chunk);
            return new SegmentTreeAggregate(plain, firsts, frames, chunk, field);
        }
        return new FrameScanAggregate(aggregate, arg, frames, chunk, field);
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
