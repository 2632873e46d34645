package dev.quiver.distributed.planner;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.event.ConsumerTasks;
import dev.quiver.distributed.event.StageBoundary;
import dev.quiver.distributed.plan.TaskCountHint;

/** The consumer count one handler asked for at one boundary, and the hint it becomes. */
public record HandlerCount(String handler, ConsumerTasks tasks, TaskCountHint hint) {
    public HandlerCount {
        requireNonNull(handler, "handler is null");
        requireNonNull(tasks, "tasks is null");
        requireNonNull(hint, "hint is null");
    }

    static HandlerCount of(String handler, ConsumerTasks tasks, StageBoundary boundary) {
        String origin = origin(handler, boundary) + (tasks.partitionsPerConsumerTask().isPresent()
                ? " with P_c=" + tasks.partitionsPerConsumerTask().getAsInt() : "");
        TaskCountHint hint = tasks.exact() ? TaskCountHint.exact(tasks.tasks(), origin) : TaskCountHint.desired(tasks.tasks(), origin);
        return new HandlerCount(handler, tasks, hint);
    }

    /** {@code handler <name> (stage 2 → stage 3)}: hints from handlers carry this origin. */
    static String origin(String handler, StageBoundary boundary) {
        return "handler " + handler + " (" + boundary.describe() + ")";
    }
}
