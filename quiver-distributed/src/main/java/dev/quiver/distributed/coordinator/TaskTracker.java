package dev.quiver.distributed.coordinator;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.client.TaskControl;
import dev.quiver.distributed.client.TaskListener;
import dev.quiver.distributed.coordinator.spi.QueryEvent;
import dev.quiver.distributed.protocol.PartitionSample;
import dev.quiver.distributed.protocol.TaskError;
import dev.quiver.distributed.protocol.TaskId;
import dev.quiver.distributed.protocol.TaskReport;
import dev.quiver.distributed.protocol.TaskState;
import dev.quiver.distributed.protocol.WorkerAddress;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * The worker tasks of one {@link DistributedQuery}: each task's worker, last known state, control
 * stream and final report, fed by the task's control-stream callbacks.
 *
 * <p>It shares the query's lock rather than having its own: registering a task and the query's move
 * to ENDING must be ordered against each other, or a task dispatched while the query ends would never
 * be ended; and the query waits on that lock for a failure or the last report.
 */
final class TaskTracker {
    private static final TaskError FAILED_WITHOUT_MESSAGE = new TaskError(ErrorCode.REMOTE_TASK_FAILED, "the task failed without an error message");

    private final Object lock;
    private final QueryEvents events;
    private final boolean collectMetrics;
    private final Consumer<QuiverException> taskFailed;
    private final Runnable taskReported;
    private final BiConsumer<TaskId, PartitionSample> sampled;
    private final Map<TaskId, TrackedTask> tasks = new LinkedHashMap<>();

    /**
     * @param lock the query's lock, which guards every task
     * @param collectMetrics false to keep the tasks' operator metrics out of their reports
     * @param taskFailed told when a task reports FAILED or its stream breaks, with an error naming stage, task and worker
     * @param taskReported told after each final report, once the report is recorded
     * @param sampled told of each sample a task sends (AQE)
     */
    TaskTracker(Object lock, QueryEvents events, boolean collectMetrics, Consumer<QuiverException> taskFailed, Runnable taskReported,
            BiConsumer<TaskId, PartitionSample> sampled) {
        this.lock = requireNonNull(lock, "lock is null");
        this.events = requireNonNull(events, "events is null");
        this.collectMetrics = collectMetrics;
        this.taskFailed = requireNonNull(taskFailed, "taskFailed is null");
        this.taskReported = requireNonNull(taskReported, "taskReported is null");
        this.sampled = requireNonNull(sampled, "sampled is null");
    }

    /** Registers a task about to be sent to {@code worker}; it is SENT from now on. */
    TrackedTask add(TaskId id, WorkerAddress worker) {
        TrackedTask task = new TrackedTask(id, worker);
        synchronized (lock) {
            tasks.put(task.id, task);
            task.state = TaskState.SENT;
        }
        events.emit(new QueryEvent.TaskStateChanged(task.id, worker, TaskState.PLANNED, Optional.empty()));
        events.emit(new QueryEvent.TaskStateChanged(task.id, worker, TaskState.SENT, Optional.empty()));
        return task;
    }

    /** The listener for {@code task}'s control stream. */
    TaskListener listener(TrackedTask task) {
        return new Listener(task);
    }

    /** {@code task}'s control stream is open: from now on it can be ended. */
    void opened(TrackedTask task, TaskControl control) {
        synchronized (lock) {
            task.control = control;
        }
    }

    /** {@code task}'s control stream, or null if it was not opened. */
    TaskControl control(TrackedTask task) {
        synchronized (lock) {
            return task.control;
        }
    }

    /** Half-closes {@code task}'s control stream, once; a task not yet opened or already final is left alone. */
    void end(TrackedTask task) {
        TaskControl control;
        synchronized (lock) {
            if (task.endSent || task.control == null || task.isFinal()) {
                return;
            }
            task.endSent = true;
            control = task.control;
        }
        try {
            control.endQuery();
        } catch (RuntimeException e) {
            failed(task, DistributedQuery.asQuiver(e, "Ending task " + task.id + " on worker " + task.worker));
        }
    }

    /** Records {@code task} as FAILED with {@code error} unless it already has its final report. */
    void failed(TrackedTask task, QuiverException error) {
        report(task, new TaskReport(task.id, task.worker, TaskState.FAILED, List.of(), Optional.of(TaskError.of(error))));
    }

    /** Records {@code task}'s final report (the first one wins). */
    void report(TrackedTask task, TaskReport received) {
        TaskReport report = collectMetrics ? received
                : new TaskReport(received.taskId(), received.worker(), received.state(), List.of(), received.error());
        synchronized (lock) {
            if (task.isFinal()) {
                return;
            }
            task.report = report;
            if (task.state != report.state()) {
                task.state = report.state();
                events.emit(new QueryEvent.TaskStateChanged(task.id, task.worker, report.state(), report.error()));
            }
            // the query may wait for the last report (or a failure) after its head stage failed
            lock.notifyAll();
        }
        if (report.state() == TaskState.FAILED) {
            taskFailed.accept(taskFailure(task, report.error().orElse(FAILED_WITHOUT_MESSAGE)));
        }
        taskReported.run();
    }

    private void stateChanged(TrackedTask task, TaskState state, Optional<TaskError> error) {
        synchronized (lock) {
            if (task.isFinal() || task.state == state) {
                return;
            }
            task.state = state;
            events.emit(new QueryEvent.TaskStateChanged(task.id, task.worker, state, error));
        }
        if (state == TaskState.FAILED) {
            taskFailed.accept(taskFailure(task, error.orElse(FAILED_WITHOUT_MESSAGE)));
        }
    }

    private static QuiverException taskFailure(TrackedTask task, TaskError error) {
        String message = error.message();
        String where = "stage " + task.id.stageId() + " (task " + task.id + ") on worker " + task.worker;
        return new QuiverException(error.code(), message.contains(task.worker.toString()) && message.contains("stage " + task.id.stageId())
                ? message : "Task failed in " + where + ": " + message);
    }

    // ---- views, under the query's lock -------------------------------------------------------------

    /** Every task so far, in dispatch order. */
    List<TrackedTask> all() {
        synchronized (lock) {
            return List.copyOf(tasks.values());
        }
    }

    /** The tasks without a final report. */
    List<TrackedTask> missing() {
        synchronized (lock) {
            return tasks.values().stream().filter(t -> !t.isFinal()).toList();
        }
    }

    boolean allFinal() {
        synchronized (lock) {
            return tasks.values().stream().allMatch(TrackedTask::isFinal);
        }
    }

    /** The final reports, in dispatch order (a task without one yet has none in the list). */
    List<TaskReport> reports() {
        synchronized (lock) {
            return tasks.values().stream().map(t -> t.report).toList();
        }
    }

    /** The control streams that were opened. */
    List<TaskControl> controls() {
        synchronized (lock) {
            return tasks.values().stream().map(t -> t.control).filter(Objects::nonNull).toList();
        }
    }

    /** Each task's last known state. */
    Map<TaskId, TaskState> states() {
        synchronized (lock) {
            Map<TaskId, TaskState> states = new LinkedHashMap<>();
            tasks.forEach((id, task) -> states.put(id, task.state));
            return states;
        }
    }

    /** Routes one task's control-stream callbacks into the tracker. */
    private final class Listener implements TaskListener {
        private final TrackedTask task;

        Listener(TrackedTask task) {
            this.task = requireNonNull(task, "task is null");
        }

        @Override
        public void onStateChanged(TaskId id, TaskState state, Optional<TaskError> error) {
            stateChanged(task, state, error);
        }

        @Override
        public void onFinalReport(TaskReport report) {
            report(task, report);
        }

        @Override
        public void onSample(TaskId id, PartitionSample sample) {
            sampled.accept(id, sample);
        }

        @Override
        public void onStreamFailed(TaskId id, QuiverException error) {
            failed(task, error);
        }
    }
}
