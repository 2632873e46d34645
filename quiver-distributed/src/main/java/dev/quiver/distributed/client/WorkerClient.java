package dev.quiver.distributed.client;

import dev.quiver.distributed.config.DistributedSettings;
import dev.quiver.distributed.protocol.TaskRequest;
import dev.quiver.distributed.protocol.WorkerAddress;
import dev.quiver.distributed.protocol.WorkerInfo;
import java.time.Duration;

/** The coordinator's connection to one worker. Thread-safe. */
public interface WorkerClient extends AutoCloseable {
    WorkerAddress address();

    /**
     * Asks the worker who it is, waiting at most {@code timeout} for the answer (the coordinator's
     * {@code distributed.worker_info_timeout_ms}). Fails with WORKER_UNREACHABLE naming the address:
     * soon when nobody listens there, at the deadline (naming it and the setting) when nobody answers.
     */
    WorkerInfo info(Duration timeout);

    /** {@link #info(Duration)} with the default of {@code distributed.worker_info_timeout_ms}. */
    default WorkerInfo info() {
        return info(Duration.ofMillis(DistributedSettings.WORKER_INFO_TIMEOUT_MS.defaultValue()));
    }

    /**
     * Opens the task's control stream with {@code request} and returns once the worker has
     * registered the task; what the worker says afterwards arrives on {@code listener}. Throws, and
     * never calls the listener, if the worker cannot be reached (WORKER_UNREACHABLE) or refuses the
     * task (e.g. WORKER_VERSION_MISMATCH, or the error that decoding the request raised).
     */
    TaskControl startTask(TaskRequest request, TaskListener listener);

    /** Closes the connection; every control stream must have been closed before. */
    @Override
    void close();
}
