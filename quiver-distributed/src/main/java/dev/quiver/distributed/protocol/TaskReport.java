package dev.quiver.distributed.protocol;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Optional;

/**
 * A task's last word: its terminal state, where it ran, what its operators measured (empty for a
 * task that never executed) and, if it failed, why.
 */
public record TaskReport(TaskId taskId, WorkerAddress worker, TaskState state, List<OperatorMetricsSnapshot> metrics, Optional<TaskError> error) {
    public TaskReport {
        requireNonNull(taskId, "taskId is null");
        requireNonNull(worker, "worker is null");
        requireNonNull(state, "state is null");
        metrics = List.copyOf(requireNonNull(metrics, "metrics is null"));
        requireNonNull(error, "error is null");
        if (!state.isTerminal()) {
            throw new IllegalArgumentException("a task report needs a terminal state, not " + state);
        }
    }
}
