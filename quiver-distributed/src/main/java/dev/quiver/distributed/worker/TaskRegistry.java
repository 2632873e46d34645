package dev.quiver.distributed.worker;

import dev.quiver.distributed.task.TaskId;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The tasks a worker currently holds, by id. A data request may arrive just before its task: {@link #await} waits a little. */
final class TaskRegistry {
    private final Map<TaskId, WorkerTask> tasks = new HashMap<>();
    private boolean closed;

    synchronized void register(WorkerTask task) {
        if (closed) {
            throw new QuiverException(ErrorCode.WORKER_LOST, "the worker is shutting down; task " + task.id() + " was not started");
        }
        if (tasks.putIfAbsent(task.id(), task) != null) {
            throw new QuiverException(ErrorCode.PLAN_ERROR, "task " + task.id() + " is already running on this worker");
        }
        notifyAll();
    }

    synchronized void remove(WorkerTask task) {
        tasks.remove(task.id(), task);
        notifyAll();
    }

    /** The task, waiting up to {@code wait} for it to be registered. */
    synchronized WorkerTask await(TaskId id, Duration wait, String worker) {
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            WorkerTask task = tasks.get(id);
            if (task != null) {
                return task;
            }
            long left = deadline - System.nanoTime();
            if (closed || left <= 0) {
                throw new QuiverException(ErrorCode.INTERNAL_ERROR, "worker " + worker + " has no task " + id + " (waited " + wait.toMillis()
                        + " ms): it was never started there, or it has already ended");
            }
            try {
                wait(Math.max(1, left / 1_000_000));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new QuiverException(ErrorCode.QUERY_CANCELLED, "interrupted while waiting for task " + id);
            }
        }
    }

    synchronized int size() {
        return tasks.size();
    }

    /** Refuses new tasks from now on and returns those still held. */
    synchronized List<WorkerTask> close() {
        closed = true;
        notifyAll();
        return new ArrayList<>(tasks.values());
    }
}
