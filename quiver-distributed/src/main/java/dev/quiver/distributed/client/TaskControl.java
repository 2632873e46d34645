package dev.quiver.distributed.client;

/** The coordinator's end of one task's control stream. */
public interface TaskControl extends AutoCloseable {
    /**
     * Ends the query for this task (half-closes the control stream): the worker stops the task if it
     * still runs (CANCELLED, or SKIPPED if it never executed), sends its final report and completes.
     */
    void endQuery();

    /** Cancels the control stream at once (no final report is awaited); the worker cancels the task. */
    void abort(String reason);

    /** Releases the stream (aborting it if it is still open). */
    @Override
    void close();
}
