package dev.quiver.engine.execution;

import static java.util.Objects.requireNonNull;

import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A pull-based stream of Arrow record batches: the output of one partition of an
 * {@link ExecutionPlan}.
 *
 * <h2>Ownership</h2>
 * Each batch returned by {@link #next()} belongs to the caller, which must close it. A stream
 * never reuses a batch it has handed out: sources that fill one reused root (Flight streams, IPC
 * readers) transfer the vectors into a fresh root first. A batch that several readers consume
 * (broadcast, sampler replay) is shared by reference count and each reader closes its own
 * reference; so is the memory of a cached table's scan. Hence batches are read-only: an operator
 * writes only into vectors it allocated, and passes input vectors on unchanged (by transfer or
 * split) or not at all.
 *
 * <h2>Threads</h2>
 * One thread at a time calls {@link #next()}. It may block while an input is being produced on
 * another thread. {@link #close()} may be called before the end of the stream (LIMIT satisfied,
 * query cancelled); it releases everything the stream holds, closes its inputs and makes any
 * producer threads working for it stop.
 *
 * <h2>Errors and cancellation</h2>
 * A failure is thrown from {@link #next()} as a {@link dev.quiver.engine.error.QuiverException}.
 * Implementations check {@link TaskContext#checkCancelled()} between batches.
 */
public interface BatchStream extends AutoCloseable {
    /** The schema of every batch of this stream. */
    Schema schema();

    /** Returns the next non-null batch, owned by the caller, or {@code null} at the end of the stream. */
    VectorSchemaRoot next();

    /** Releases all resources; idempotent. */
    @Override
    void close();

    /** A stream of no batches. */
    static BatchStream empty(Schema schema) {
        requireNonNull(schema, "schema is null");
        return new BatchStream() {
            @Override
            public Schema schema() {
                return schema;
            }

            @Override
            public VectorSchemaRoot next() {
                return null;
            }

            @Override
            public void close() {}
        };
    }
}
