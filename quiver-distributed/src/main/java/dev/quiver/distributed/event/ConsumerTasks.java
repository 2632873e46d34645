package dev.quiver.distributed.event;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.util.OptionalInt;

/**
 * The consumer task count a handler asks for: advisory ({@code Desired(n)}, merged by taking the
 * maximum with AQE's and other handlers' counts) or exact (a requirement: overrides every advisory
 * count, never coalesced below, optionally with the partitions {@code P_c} each consumer task reads,
 * so that the producer writes {@code P_c × n} hash partitions).
 */
public record ConsumerTasks(int tasks, boolean exact, OptionalInt partitionsPerConsumerTask) {
    public ConsumerTasks {
        requireNonNull(partitionsPerConsumerTask, "partitionsPerConsumerTask is null");
        String asked = (exact ? "Exact(" : "Desired(") + tasks + (partitionsPerConsumerTask.isPresent() ? ", P_c=" + partitionsPerConsumerTask.getAsInt() : "") + ")";
        if (tasks < 1) {
            throw invalid(asked + ": a consumer runs at least one task");
        }
        if (!exact && partitionsPerConsumerTask.isPresent()) {
            throw invalid(asked + ": only an exact consumer count may set P_c");
        }
        if (partitionsPerConsumerTask.isPresent() && partitionsPerConsumerTask.getAsInt() < 1) {
            throw invalid(asked + ": P_c must be at least 1");
        }
    }

    /** A handler's answer that cannot be applied: a user error (the dispatcher names the handler). */
    static QuiverException invalid(String problem) {
        return new QuiverException(ErrorCode.INVALID_ARGUMENT, "invalid consumer count " + problem);
    }

    public static ConsumerTasks desired(int tasks) {
        return new ConsumerTasks(tasks, false, OptionalInt.empty());
    }

    public static ConsumerTasks exact(int tasks) {
        return new ConsumerTasks(tasks, true, OptionalInt.empty());
    }

    public static ConsumerTasks exact(int tasks, int partitionsPerConsumerTask) {
        return new ConsumerTasks(tasks, true, OptionalInt.of(partitionsPerConsumerTask));
    }

    @Override
    public String toString() {
        return (exact ? "Exact(" : "Desired(") + tasks + ")" + (partitionsPerConsumerTask.isPresent() ? " with P_c=" + partitionsPerConsumerTask.getAsInt() : "");
    }
}
