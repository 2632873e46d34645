package dev.quiver.distributed.protocol;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.JvmErrors;
import dev.quiver.engine.error.QuiverException;

/** Why a task failed, as it travels from a worker to the coordinator: the original code and message. */
public record TaskError(ErrorCode code, String message) {
    public TaskError {
        requireNonNull(code, "code is null");
        requireNonNull(message, "message is null");
    }

    public static TaskError of(Throwable failure) {
        if (failure instanceof QuiverException quiver) {
            return new TaskError(quiver.errorCode(), quiver.getMessage());
        }
        if (JvmErrors.isStackOverflow(failure)) {
            QuiverException overflow = JvmErrors.stackOverflow("running it on a worker", failure);
            return new TaskError(overflow.errorCode(), overflow.getMessage());
        }
        String message = failure.getMessage() == null ? failure.getClass().getSimpleName() : failure.getClass().getSimpleName() + ": " + failure.getMessage();
        return new TaskError(ErrorCode.INTERNAL_ERROR, message);
    }
}
