package dev.quiver.distributed.coordinator;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.BatchStream;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * The result stream of a {@link RetryingQuery}: the current attempt's head stage output. It counts
 * the rows it returned; when the attempt fails, it closes the attempt's stream and lets the query
 * decide ({@link RetryingQuery#retryOrThrow}): the next attempt's stream takes over, or the error is thrown.
 */
final class RetryingStream implements BatchStream {
    private final RetryingQuery query;
    private final Schema schema;
    private BatchStream attempt;
    private long rowsReturned;
    private boolean ended;

    RetryingStream(RetryingQuery query, BatchStream first) {
        this.query = requireNonNull(query, "query is null");
        this.attempt = requireNonNull(first, "first is null");
        this.schema = first.schema();
    }

    @Override
    public Schema schema() {
        return schema;
    }

    @Override
    public VectorSchemaRoot next() {
        if (ended) {
            return null;
        }
        while (true) {
            VectorSchemaRoot batch;
            try {
                batch = attempt.next();
            } catch (QuiverException e) {
                closeAttempt(e);
                try {
                    query.retryOrThrow(e, rowsReturned);
                    attempt = query.startAttempt(rowsReturned);
                } catch (RuntimeException failure) {
                    ended = true;
                    throw failure;
                }
                continue;
            }
            if (batch == null) {
                ended = true;
                query.settle();
                return null;
            }
            rowsReturned += batch.getRowCount();
            return batch;
        }
    }

    private void closeAttempt(QuiverException failure) {
        BatchStream failed = attempt;
        try {
            failed.close();
        } catch (RuntimeException e) {
            failure.addSuppressed(e);
        }
    }

    @Override
    public void close() {
        try {
            attempt.close();
        } finally {
            query.settle();
        }
    }
}
