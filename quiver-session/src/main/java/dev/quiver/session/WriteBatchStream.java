package dev.quiver.session;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.batch.Batches;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.TaskContext;
import java.util.List;
import java.util.function.Function;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The result stream of a writing statement: its first {@link #next()} pulls every batch of the
 * query into the {@link WriteSink}, commits, and returns one row with the count. A failure or a
 * cancellation on the way aborts the sink, so nothing half-written stays; so does closing the
 * stream before it finished.
 */
final class WriteBatchStream implements BatchStream {
    private final BatchStream input;
    private final WriteSink sink;
    private final TaskContext context;
    private boolean done;

    WriteBatchStream(BatchStream input, WriteSink sink, TaskContext context) {
        this.input = requireNonNull(input, "input is null");
        this.sink = requireNonNull(sink, "sink is null");
        this.context = requireNonNull(context, "context is null");
    }

    /**
     * Opens the sink, then the query's stream ({@code input}); if the query cannot start, the sink is
     * aborted so its staging output does not stay behind.
     */
    static BatchStream open(Function<TaskContext, BatchStream> input, Function<TaskContext, WriteSink> sink, TaskContext context) {
        WriteSink opened = sink.apply(context);
        try {
            return new WriteBatchStream(input.apply(context), opened, context);
        } catch (RuntimeException e) {
            opened.abort();
            throw e;
        }
    }

    @Override
    public Schema schema() {
        return WriteSink.COUNT_SCHEMA;
    }

    @Override
    public VectorSchemaRoot next() {
        if (done) {
            return null;
        }
        done = true;
        long rows;
        try {
            VectorSchemaRoot batch;
            while ((batch = input.next()) != null) {
                try (VectorSchemaRoot owned = batch) {
                    context.checkCancelled();
                    sink.write(owned);
                }
            }
            rows = sink.commit();
        } catch (RuntimeException e) {
            try {
                sink.abort();
            } catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        return Batches.fromRows(WriteSink.COUNT_SCHEMA, List.of(List.of(rows)), context.allocator());
    }

    @Override
    public void close() {
        try {
            input.close();
        } finally {
            sink.abort();
        }
    }
}
