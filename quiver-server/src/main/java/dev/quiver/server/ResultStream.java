package dev.quiver.server;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.execution.BatchStream;
import dev.quiver.session.QueryHandle;
import org.apache.arrow.flight.FlightProducer.ServerStreamListener;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;

/**
 * Sends one query's result batches to a Flight client (the body of a DoGet), on a thread of the
 * server's: the schema first, then each batch as the client can take it, then completion, or the
 * query's error with its code.
 *
 * <p>Each batch is loaded into the stream's one root by reference and sent; Flight copies it into
 * the message as {@code putNext} returns (zero copy is off), so the batch is closed at once and the
 * query's memory never waits on the network. A client that cancels or disconnects cancels the query
 * ({@link ClientReadiness}); the handle is closed in every case, which frees the query.
 */
final class ResultStream implements Runnable {
    private final QueryHandle handle;
    private final ServerStreamListener listener;
    private final BufferAllocator allocator;
    private final ClientReadiness readiness;

    /**
     * @param allocator where the stream's (empty) root lives; the batches stay in the query's allocator
     * @param readiness the listener's back-pressure, whose cancel ends the query
     */
    ResultStream(QueryHandle handle, ServerStreamListener listener, BufferAllocator allocator, ClientReadiness readiness) {
        this.handle = requireNonNull(handle, "handle is null");
        this.listener = requireNonNull(listener, "listener is null");
        this.allocator = requireNonNull(allocator, "allocator is null");
        this.readiness = requireNonNull(readiness, "readiness is null");
    }

    @Override
    public void run() {
        Throwable failure = null;
        try {
            send();
        } catch (Throwable e) {
            failure = e;
        }
        try {
            handle.close();
        } catch (RuntimeException e) {
            failure = failure == null ? e : failure;
        }
        if (listener.isCancelled()) {
            return;
        }
        if (failure != null) {
            listener.error(ServerErrors.toFlight(failure));
        } else {
            listener.completed();
        }
    }

    private void send() throws InterruptedException {
        try (VectorSchemaRoot root = VectorSchemaRoot.create(handle.schema(), allocator)) {
            listener.start(root);
            BatchStream batches = handle.stream();
            VectorSchemaRoot batch;
            while (!listener.isCancelled() && (batch = batches.next()) != null) {
                try (VectorSchemaRoot owned = batch) {
                    if (owned.getRowCount() == 0) {
                        continue;
                    }
                    if (!readiness.awaitReady()) {
                        break;
                    }
                    load(owned, root);
                    listener.putNext();
                    root.clear();
                }
            }
        }
    }

    /** Makes {@code root} show {@code batch} (sharing its buffers). */
    private static void load(VectorSchemaRoot batch, VectorSchemaRoot root) {
        try (ArrowRecordBatch record = new VectorUnloader(batch).getRecordBatch()) {
            new VectorLoader(root).load(record);
        }
    }
}
