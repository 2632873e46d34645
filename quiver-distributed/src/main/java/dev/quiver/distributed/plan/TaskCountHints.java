package dev.quiver.distributed.plan;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.util.List;

/**
 * Merges the task-count hints of one stage (DESIGN §4): every {@link TaskCountHint.Desired} is
 * clamped to the limit <em>before</em> merging and the largest wins; an {@link TaskCountHint.Exact}
 * overrides every Desired, is never clamped, fails when it exceeds the limit, and two different
 * Exacts fail naming both origins. AQE and stage-event handlers merge through the same rules.
 */
public final class TaskCountHints {
    private TaskCountHints() {}

    /**
     * The merged hint of a stage.
     *
     * @param stage how errors name the stage, e.g. {@code "stage 3"}
     * @param hints the hints of the stage's nodes, leaves, inputs and handlers, in plan order
     * @param maxTasks the effective {@code max_tasks_per_stage}
     * @param limitOrigin how the limit is named, e.g. {@code setting distributed.max_tasks_per_stage=4}
     * @return the winning hint with its origin (a clamped Desired says so); {@code Desired(1)} when there is no hint
     */
    public static TaskCountHint merge(String stage, List<TaskCountHint> hints, int maxTasks, String limitOrigin) {
        TaskCountHint.Exact exact = null;
        for (TaskCountHint hint : hints) {
            if (hint instanceof TaskCountHint.Exact candidate) {
                if (exact != null && exact.taskCount() != candidate.taskCount()) {
                    throw new QuiverException(ErrorCode.TASK_COUNT_CONFLICT, stage + " has conflicting exact task counts: " + exact.taskCount()
                            + " from " + exact.origin() + " and " + candidate.taskCount() + " from " + candidate.origin());
                }
                exact = exact == null ? candidate : exact;
            }
        }
        if (exact != null) {
            if (exact.taskCount() > maxTasks) {
                throw new QuiverException(ErrorCode.TASK_COUNT_CONFLICT, stage + " requires exactly " + exact.taskCount() + " tasks (from "
                        + exact.origin() + "), more than the limit of " + maxTasks + " tasks per stage (" + limitOrigin
                        + "); raise the limit or lower the requirement");
            }
            return exact;
        }
        TaskCountHint.Desired best = null;
        for (TaskCountHint hint : hints) {
            TaskCountHint.Desired desired = clamp((TaskCountHint.Desired) hint, maxTasks, limitOrigin);
            if (best == null || desired.taskCount() > best.taskCount()) {
                best = desired;
            }
        }
        return best != null ? best : TaskCountHint.desired(1, "no node of " + stage + " asks for more than one task");
    }

    /** {@code hint} clamped to {@code maxTasks}; the origin records the clamp. */
    public static TaskCountHint.Desired clamp(TaskCountHint.Desired hint, int maxTasks, String limitOrigin) {
        if (hint.taskCount() <= maxTasks) {
            return hint;
        }
        return TaskCountHint.desired(maxTasks, hint.origin() + "; " + hint.taskCount() + " clamped by " + limitOrigin);
    }
}
