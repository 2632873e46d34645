package dev.quiver.distributed.worker;

import dev.quiver.distributed.protocol.TaskId;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * The tasks a worker currently holds, by id. A data request may arrive just before its task:
 * {@link #await} waits a little. The ids of the last few ended tasks are remembered, so that a late
 * request for one fails at once instead of waiting for a task that will not come.
 */
final class TaskRegistry {
    private static final int ENDED_REMEMBERED = 1024;
    private static final long WAIT_SLICE_MILLIS = 50;

    private final Map<TaskId, WorkerTask> tasks = new HashMap<>();
    private final Set<TaskId> ended = Collections.newSetFromMap(new LinkedHashMap<>() {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<TaskId, Boolean> eldest) {
            return size() > ENDED_REMEMBERED;
        }
    });
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
        if (tasks.remove(task.id(), task)) {
            ended.add(task.id());
        }
        notifyAll();
    }

    /** The task, waiting up to {@code wait} for it to be registered, or until {@code abandoned} says the requester went away. */
    synchronized WorkerTask await(TaskId id, Duration wait, String worker, BooleanSupplier abandoned) {
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            WorkerTask task = tasks.get(id);
            if (task != null) {
                return task;
            }
            if (ended.contains(id)) {
                throw new QuiverException(ErrorCode.QUERY_CANCELLED, "task " + id + " has already ended on worker " + worker
                        + "; its output can no longer be read");
            }
            long left = deadline - System.nanoTime();
            if (closed || left <= 0 || abandoned.getAsBoolean()) {
                throw new QuiverException(ErrorCode.INTERNAL_ERROR, "worker " + worker + " has no task " + id + " (waited " + wait.toMillis()
                        + " ms): it was never started there, or it has already ended");
            }
            try {
                wait(Math.max(1, Math.min(WAIT_SLICE_MILLIS, left / 1_000_000)));
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
