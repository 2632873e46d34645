package dev.quiver.engine.operator.window;

import dev.quiver.engine.batch.Take;
import dev.quiver.engine.operator.aggregate.AggregateExpr;
import dev.quiver.engine.operator.aggregate.AggregateMode;
import dev.quiver.engine.operator.aggregate.GroupAccumulator;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * An aggregate over frames that feeds every row of each frame to a SINGLE accumulator, one group
 * per distinct frame: for aggregates that cannot merge partial states, such as DISTINCT ones over
 * frames that slide. Its cost is the sum of the frame sizes; consecutive rows with the same frame
 * (peers, whole partitions) share one group.
 */
final class FrameScanAggregate implements WindowEvaluator {
    /** The most rows fed to the accumulator per call. */
    private static final int SLICE = 65_536;

    private final AggregateExpr aggregate;
    /** The aggregate's evaluated inputs over the chunk ({@link AggregateExpr#inputs()}). */
    private final List<FieldVector> inputs;
    private final FrameBounds frames;
    private final WindowChunk chunk;
    private final Field field;
    private final int[] ranges = new int[2 * FrameBounds.MAX_RANGES];

    FrameScanAggregate(AggregateExpr aggregate, List<FieldVector> inputs, FrameBounds frames, WindowChunk chunk, Field field) {
        this.aggregate = aggregate;
        this.inputs = List.copyOf(inputs);
        this.frames = frames;
        this.chunk = chunk;
        this.field = field;
    }

    @Override
    public FieldVector evaluate(int from, int count) {
        int[] groupOf = new int[count];
        int groups = 0;
        GroupAccumulator accumulator = GroupAccumulator.create(aggregate, AggregateMode.SINGLE, chunk.allocator());
        long reserved = 0;
        try {
            // at most one group per output row: sized once, not group by group (each growth copies the arrays)
            accumulator.ensureCapacity(count);
            int slice = (int) Math.max(1, Math.min(SLICE, frames.totalWidth(from, count)));
            int[] rows = new int[slice];
            int[] targets = new int[slice];
            int pending = 0;
            for (int i = 0; i < count; i++) {
                int row = from + i;
                if (i > 0 && frames.sameRows(row - 1, row)) {
                    groupOf[i] = groups - 1;
                    continue;
                }
                int group = groups++;
                groupOf[i] = group;
                int rangeCount = frames.ranges(row, ranges);
                for (int r = 0; r < rangeCount; r++) {
                    for (int frameRow = ranges[2 * r]; frameRow < ranges[2 * r + 1]; frameRow++) {
                        if (pending == slice) {
                            feed(accumulator, rows, targets, pending);
                            pending = 0;
                        }
                        rows[pending] = frameRow;
                        targets[pending++] = group;
                    }
                }
                long size = accumulator.sizeInBytes();
                if (size > reserved) {
                    chunk.reserveTransient(size - reserved);
                    reserved = size;
                }
            }
            feed(accumulator, rows, targets, pending);
            FieldVector values = accumulator.evaluate(0, groups, chunk.allocator());
            return ResultVectors.expand(values, groupOf, groups, count, field, chunk.allocator());
        } finally {
            accumulator.clear();
            chunk.release(reserved);
        }
    }

    private void feed(GroupAccumulator accumulator, int[] rows, int[] targets, int count) {
        if (count == 0) {
            return;
        }
        List<FieldVector> taken = new ArrayList<>(inputs.size());
        try {
            for (FieldVector input : inputs) {
                taken.add(Take.take(input, rows, count, chunk.allocator()));
            }
            accumulator.update(targets, count, taken);
        } finally {
            taken.forEach(FieldVector::close);
        }
    }
}
