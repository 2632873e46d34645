package dev.quiver.session;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.BatchStream;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Passes a query's batches through, turning any failure that is not a {@link QuiverException}
 * (a bug somewhere below) into one with {@code INTERNAL_ERROR}, so callers handle one type, and
 * notes when the stream {@linkplain #ended() ended}.
 */
final class ErrorTranslatingBatchStream implements BatchStream {
    private final BatchStream inner;
    private final String queryId;
    private volatile boolean ended;

    ErrorTranslatingBatchStream(BatchStream inner, String queryId) {
        this.inner = requireNonNull(inner, "inner is null");
        this.queryId = "Query " + requireNonNull(queryId, "queryId is null");
    }

    @Override
    public Schema schema() {
        return inner.schema();
    }

    @Override
    public VectorSchemaRoot next() {
        try {
            VectorSchemaRoot batch = inner.next();
            if (batch == null) {
                ended = true;
            }
            return batch;
        } catch (RuntimeException e) {
            ended = true;
            throw translate(e, queryId);
        }
    }

    /** Whether the stream returned its end, failed or was closed: the query runs no more for its reader. */
    boolean ended() {
        return ended;
    }

    @Override
    public void close() {
        ended = true;
        try {
            inner.close();
        } catch (RuntimeException e) {
            throw translate(e, queryId);
        }
    }

    static QuiverException translate(RuntimeException e, String what) {
        if (e instanceof QuiverException quiver) {
            return quiver;
        }
        return new QuiverException(ErrorCode.INTERNAL_ERROR, what + " failed: " + e, e);
    }
}
