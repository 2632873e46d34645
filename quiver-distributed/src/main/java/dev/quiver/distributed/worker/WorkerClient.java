package dev.quiver.distributed.worker;

import dev.quiver.distributed.task.TaskControl;
import dev.quiver.distributed.task.TaskListener;
import dev.quiver.distributed.task.TaskRequest;

/** The coordinator's connection to one worker. Thread-safe. */
public interface WorkerClient extends AutoCloseable {
    WorkerAddress address();

    /** Asks the worker who it is; fails with WORKER_UNREACHABLE naming the address within seconds if nobody answers. */
    WorkerInfo info();

    /** Opens the task's control stream with {@code request}; what the worker says arrives on {@code listener}. */
    TaskControl startTask(TaskRequest request, TaskListener listener);

    /** Closes the connection; every control stream must have been closed before. */
    @Override
    void close();
}
