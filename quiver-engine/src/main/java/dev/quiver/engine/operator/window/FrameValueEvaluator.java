package dev.quiver.engine.operator.window;

import dev.quiver.engine.batch.Take;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * {@code FIRST_VALUE}, {@code LAST_VALUE} and {@code NTH_VALUE} over the frame (its exclusion taken
 * out): the value of the frame's first, last or n-th row — with {@code IGNORE NULLS} of its
 * first, last or n-th row whose value is not NULL — or NULL when there is none.
 */
final class FrameValueEvaluator implements WindowEvaluator {
    private final WindowFunction.FrameValue function;
    private final FrameBounds frames;
    private final WindowChunk chunk;
    private final FieldVector values;
    private final IntegerArg positions;
    private final NonNullRows nonNull;
    private final Field field;
    private final int[] ranges = new int[2 * FrameBounds.MAX_RANGES];

    FrameValueEvaluator(WindowFunction.FrameValue function, FrameBounds frames, WindowChunk chunk, Field field) {
        this.function = function;
        this.frames = frames;
        this.chunk = chunk;
        this.values = chunk.column(function.value());
        this.positions = function.position() == WindowFunction.FrameValue.Position.NTH ? new IntegerArg(chunk.column(function.n())) : null;
        if (function.ignoreNulls()) {
            chunk.reserve(NonNullRows.estimateBytes(chunk.rows()));
            this.nonNull = new NonNullRows(values);
        } else {
            this.nonNull = null;
        }
        this.field = field;
    }

    @Override
    public FieldVector evaluate(int from, int count) {
        int[] rows = new int[count];
        for (int i = 0; i < count; i++) {
            rows[i] = pick(from + i);
        }
        return ResultVectors.as(Take.take(values, rows, count, chunk.allocator()), field, chunk.allocator());
    }

    /** The row whose value row {@code row} gets, or -1 for NULL. */
    private int pick(int row) {
        int count = frames.ranges(row, ranges);
        return switch (function.position()) {
            case FIRST -> first(count, 1);
            case LAST -> last(count);
            case NTH -> {
                if (positions.isNull(row)) {
                    yield -1;
                }
                long n = positions.get(row);
                if (n <= 0) {
                    throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "The position of NTH_VALUE must be greater than zero: " + n);
                }
                yield first(count, n);
            }
        };
    }

    /** The n-th (from 1) counted row of the ranges, or -1. */
    private int first(int rangeCount, long n) {
        long remaining = n;
        for (int r = 0; r < rangeCount; r++) {
            int start = ranges[2 * r];
            int end = ranges[2 * r + 1];
            long available = nonNull == null ? end - start : nonNull.countBefore(end) - nonNull.countBefore(start);
            if (remaining <= available) {
                return nonNull == null ? (int) (start + remaining - 1) : nonNull.position((int) (nonNull.countBefore(start) + remaining - 1));
            }
            remaining -= available;
        }
        return -1;
    }

    private int last(int rangeCount) {
        for (int r = rangeCount - 1; r >= 0; r--) {
            int start = ranges[2 * r];
            int end = ranges[2 * r + 1];
            if (nonNull == null) {
                return end - 1;
            }
            int before = nonNull.countBefore(end);
            if (before > nonNull.countBefore(start)) {
                return nonNull.position(before - 1);
            }
        }
        return -1;
    }
}
