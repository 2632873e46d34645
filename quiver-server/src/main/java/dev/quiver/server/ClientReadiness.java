package dev.quiver.server;

import static java.util.Objects.requireNonNull;

import org.apache.arrow.flight.FlightProducer.ServerStreamListener;

/**
 * Back-pressure and cancellation of one result stream: the thread that sends batches waits here
 * until the client can take more, and a client that cancels (or goes away) both wakes it and runs
 * {@code onCancel} at once, which stops the query even while it computes its next batch.
 *
 * <p>The handlers only run promptly because the Flight call has returned: a DoGet handler that
 * blocked would get no onReady or onCancel callback (notes/flight.md §5).
 */
final class ClientReadiness {
    /** A safety net: readiness is re-read at least this often even if a callback were missed. */
    private static final long RECHECK_MILLIS = 200;

    private final ServerStreamListener listener;
    private final Object lock = new Object();

    ClientReadiness(ServerStreamListener listener, Runnable onCancel) {
        this.listener = requireNonNull(listener, "listener is null");
        requireNonNull(onCancel, "onCancel is null");
        listener.setOnReadyHandler(this::signal);
        listener.setOnCancelHandler(() -> {
            onCancel.run();
            signal();
        });
    }

    /** Waits until the client takes more; false if it cancelled. */
    boolean awaitReady() throws InterruptedException {
        synchronized (lock) {
            while (!listener.isReady() && !listener.isCancelled()) {
                lock.wait(RECHECK_MILLIS);
            }
        }
        return !listener.isCancelled();
    }

    private void signal() {
        synchronized (lock) {
            lock.notifyAll();
        }
    }
}
