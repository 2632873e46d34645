package dev.quiver.session;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.JvmErrors;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.BatchStream;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Passes a query's batches through, turning any failure that is not a {@link QuiverException}
 * (a bug somewhere below, or a stack overflow) into one ({@link JvmErrors#translate}), so callers handle one type, and
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
        } catch (RuntimeException | StackOverflowError e) {
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
        } catch (RuntimeException | StackOverflowError e) {
            throw translate(e, queryId);
        }
    }

    /**
     * {@code e} as a Quiver error; a stack overflow (a statement nested too deeply for a thread's
     * stack) is the user's STATEMENT_TOO_COMPLEX, anything else not a Quiver error INTERNAL_ERROR.
     */
    static QuiverException translate(Throwable e, String what) {
        return JvmErrors.translate(e, what, "planning or running it");
    }
}
