package dev.quiver.distributed.client;

/**
 * Closes a client-side Flight stream so that it really frees what it holds. {@code FlightStream.close()}
 * cancels the call and drains it, then frees the batches Flight parsed and queued and the stream's
 * root; but it catches only {@code FlightRuntimeException} around the drain. On a thread whose
 * interrupt flag is set (a reader stopped by its executor's shutdown, or by
 * {@code RemoteBatchStream}'s own interrupted wait) the drain's {@code queue.take()} throws at once,
 * the frees are skipped, and the buffers stay in the {@code flight-client} allocator for good
 * (closing the connections then reports "Memory was leaked"). So the flag is cleared while the
 * stream closes and set again afterwards.
 */
final class StreamRelease {
    private StreamRelease() {}

    /**
     * Closes {@code stream} (a {@code FlightStream} or an {@code ExchangeReaderWriter}) with the
     * current thread's interrupt flag cleared, and restores the flag. A failure while closing is
     * dropped: the stream is cancelled or failed already, and the error that matters was reported
     * by whoever read it.
     */
    static void release(AutoCloseable stream) {
        boolean interrupted = Thread.interrupted();
        try {
            stream.close();
        } catch (Exception e) {
            // draining a cancelled or failed stream complains; its buffers are freed either way
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
