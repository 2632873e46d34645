package dev.quiver.engine.operator.limit;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.batch.Take;
import dev.quiver.engine.execution.BatchStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Skips {@code skip} rows of its input, then passes on at most {@code fetch} rows (all rows when
 * {@code fetch} is negative), slicing the batches at the edges. The input is closed as soon as the
 * fetch is satisfied, so that the operators below stop working early.
 */
final class LimitStream implements BatchStream {
    private final BatchStream input;
    private final BufferAllocator allocator;
    private long toSkip;
    private long remaining;
    private boolean inputClosed;

    LimitStream(BatchStream input, BufferAllocator allocator, long skip, long fetch) {
        this.input = requireNonNull(input, "input is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.toSkip = skip;
        this.remaining = fetch < 0 ? Long.MAX_VALUE : fetch;
    }

    @Override
    public Schema schema() {
        return input.schema();
    }

    @Override
    public VectorSchemaRoot next() {
        while (remaining > 0 && !inputClosed) {
            VectorSchemaRoot batch = input.next();
            if (batch == null) {
                close();
                return null;
            }
            int rows = batch.getRowCount();
            if (toSkip >= rows) {
                toSkip -= rows;
                batch.close();
                continue;
            }
            int start = (int) toSkip;
            int length = (int) Math.min(rows - start, remaining);
            toSkip = 0;
            remaining -= length;
            VectorSchemaRoot result = start == 0 && length == rows ? batch : slice(batch, start, length);
            if (remaining == 0) {
                close();
            }
            return result;
        }
        close();
        return null;
    }

    private VectorSchemaRoot slice(VectorSchemaRoot batch, int start, int length) {
        try (batch) {
            int[] indices = new int[length];
            for (int i = 0; i < length; i++) {
                indices[i] = start + i;
            }
            return Take.take(batch, indices, length, allocator);
        }
    }

    @Override
    public void close() {
        if (!inputClosed) {
            inputClosed = true;
            input.close();
        }
    }
}
