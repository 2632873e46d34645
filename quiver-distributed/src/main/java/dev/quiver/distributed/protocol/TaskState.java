package dev.quiver.distributed.protocol;

/**
 * The life of a task (DESIGN §4): {@code PLANNED → SENT → RUNNING → FINISHED | FAILED | CANCELLED},
 * and {@code SENT → SKIPPED}. A task is <em>executed</em> from the first pull on its output; an
 * executed task ends FINISHED, FAILED or CANCELLED, a task sent but never executed ends SKIPPED.
 * Every task reaches a terminal state.
 */
public enum TaskState {
    PLANNED,
    SENT,
    RUNNING,
    FINISHED,
    FAILED,
    CANCELLED,
    SKIPPED;

    public boolean isTerminal() {
        return this == FINISHED || this == FAILED || this == CANCELLED || this == SKIPPED;
    }
}
