package dev.quiver.distributed.worker;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.compression.FlightCompression;
import dev.quiver.distributed.protocol.DataTicket;
import dev.quiver.distributed.protocol.FlightErrors;
import dev.quiver.engine.execution.BatchStream;
import org.apache.arrow.flight.BackpressureStrategy;
import org.apache.arrow.flight.FlightProducer.ServerStreamListener;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;

/**
 * Serves one DoGet: one output partition of one task to one consumer, on its own thread of the
 * worker's executor (the gRPC call returns at once, so the call's cancel and ready callbacks keep
 * flowing). It waits for the consumer to be ready before each batch, compresses with the task's
 * codec, and stops between batches when the consumer cancels or the task is stopped.
 */
final class PartitionSender implements Runnable {
    private static final long WAIT_MILLIS = 100;

    private final WorkerServer server;
    private final DataTicket ticket;
    private final ServerStreamListener listener;
    private final BackpressureStrategy.CallbackBackpressureStrategy backpressure = new BackpressureStrategy.CallbackBackpressureStrategy();

    PartitionSender(WorkerServer server, DataTicket ticket, ServerStreamListener listener) {
        this.server = requireNonNull(server, "server is null");
        this.ticket = requireNonNull(ticket, "ticket is null");
        this.listener = requireNonNull(listener, "listener is null");
        backpressure.register(listener);
    }

    @Override
    public void run() {
        WorkerTask task;
        BatchStream source;
        try {
            task = server.tasks().await(ticket.producerTask(), server.unknownTaskWait(), server.address().toString(), listener::isCancelled);
            source = task.open(ticket);
        } catch (RuntimeException e) {
            listener.error(FlightErrors.toFlight(e));
            return;
        }
        boolean complete = false;
        Throwable sendFailure = null;
        Throwable failure = null;
        VectorSchemaRoot root = null;
        try {
            root = VectorSchemaRoot.create(source.schema(), task.allocator());
            FlightCompression.start(listener, root, task.compression().newCodec());
            VectorLoader loader = new VectorLoader(root);
            complete = send(task, source, root, loader);
            if (complete) {
                listener.completed();
            }
        } catch (Throwable t) {
            sendFailure = t;
            failure = t;
        } finally {
            try {
                try {
                    source.close();
                } catch (RuntimeException e) {
                    failure = failure != null ? failure : e;
                }
                if (root != null) {
                    root.close();
                }
                task.senderFinished(ticket, complete && failure == null, failure);
            } finally {
                // Only now does the consumer hear of the failure, once the task is FAILED with its error:
                // a consumer that ends the query on this error (the coordinator's head stage does) would
                // otherwise find the task still running, stop it as CANCELLED and lose the error's code.
                if (sendFailure != null && !listener.isCancelled()) {
                    listener.error(FlightErrors.toFlight(sendFailure));
                }
            }
        }
    }

    /** Sends every batch; false if the consumer went away first. */
    private boolean send(WorkerTask task, BatchStream source, VectorSchemaRoot root, VectorLoader loader) {
        while (true) {
            BackpressureStrategy.WaitResult ready = backpressure.waitForListener(WAIT_MILLIS);
            if (ready == BackpressureStrategy.WaitResult.CANCELLED || listener.isCancelled()) {
                return false;
            }
            task.checkCancelled();
            if (ready != BackpressureStrategy.WaitResult.READY) {
                continue;
            }
            VectorSchemaRoot batch = source.next();
            if (batch == null) {
                return true;
            }
            try (batch) {
                if (batch.getRowCount() == 0) {
                    continue;
                }
                try (ArrowRecordBatch record = new VectorUnloader(batch).getRecordBatch()) {
                    loader.load(record);
                }
            }
            listener.putNext();
        }
    }
}
