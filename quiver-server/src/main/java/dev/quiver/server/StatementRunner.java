package dev.quiver.server;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.QuiverExecutor;
import dev.quiver.session.QueryHandle;
import dev.quiver.session.StatementDescription;
import org.apache.arrow.flight.FlightProducer.ServerStreamListener;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Runs the statements clients send, in their sessions: a statement with rows streams them to a
 * DoGet ({@link ResultStream}), an update returns its count.
 */
final class StatementRunner {
    private final BufferAllocator allocator;
    private final QuiverExecutor executor;

    StatementRunner(BufferAllocator allocator, QuiverExecutor executor) {
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.executor = requireNonNull(executor, "executor is null");
    }

    /** What {@code sql} returns and its parameters, without running it. */
    StatementDescription describe(ClientSession client, String sql) {
        return client.session().describe(sql);
    }

    /** Starts {@code sql} and streams its rows to {@code listener} from a thread of the server's; returns at once. */
    void stream(ClientSession client, String sql, ServerStreamListener listener) {
        QueryHandle handle = client.session().execute(sql);
        try {
            executor.execute("result-" + handle.queryId(), new ResultStream(handle, listener, allocator, () -> {}));
        } catch (RuntimeException e) {
            handle.close();
            throw e;
        }
    }

    /**
     * Runs {@code sql} to its end: the rows an INSERT, CREATE TABLE AS or COPY wrote, 0 for a
     * statement without a count (SET, CREATE VIEW), the rows of a query run as an update.
     */
    long update(ClientSession client, String sql, StatementDescription description) {
        try (QueryHandle handle = client.session().execute(sql)) {
            // a write's one row is its count; the rows of anything else are counted
            boolean counts = description.result() == StatementDescription.Result.UPDATE && description.runsQuery();
            long total = 0;
            BatchStream batches = handle.stream();
            VectorSchemaRoot batch;
            while ((batch = batches.next()) != null) {
                try (VectorSchemaRoot owned = batch) {
                    total += counts ? sum((BigIntVector) owned.getVector(0)) : owned.getRowCount();
                }
            }
            return handle.schema().getFields().isEmpty() ? 0 : total;
        }
    }

    private static long sum(BigIntVector counts) {
        long sum = 0;
        for (int i = 0; i < counts.getValueCount(); i++) {
            sum += counts.isNull(i) ? 0 : counts.get(i);
        }
        return sum;
    }
}
