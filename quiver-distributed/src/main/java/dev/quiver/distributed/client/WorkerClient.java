package dev.quiver.distributed.client;

import dev.quiver.distributed.protocol.TaskRequest;
import dev.quiver.distributed.protocol.WorkerAddress;
import dev.quiver.distributed.protocol.WorkerInfo;

/** The coordinator's connection to one worker. Thread-safe. */
public interface WorkerClient extends AutoCloseable {
    WorkerAddress address();

    /** Asks the worker who it is; fails with WORKER_UNREACHABLE naming the address within seconds if nobody answers. */
    WorkerInfo info();

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
