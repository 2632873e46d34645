package dev.quiver.distributed.protocol;

import dev.quiver.engine.error.ErrorCode;
import java.util.Optional;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.ErrorFlightMetadata;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightStatusCode;

/**
 * How Quiver errors cross Flight: the message travels as the status description and the
 * {@link ErrorCode} as the error metadata {@value WireFormat#ERROR_CODE_KEY}, so that a worker's
 * error keeps its code on the other side (a plain exception would arrive as "There was an error
 * servicing your request").
 */
public final class FlightErrors {
    private FlightErrors() {}

    /** The Flight error to send for {@code failure}. */
    public static FlightRuntimeException toFlight(Throwable failure) {
        TaskError error = TaskError.of(failure);
        return toFlight(error.code(), error.message());
    }

    public static FlightRuntimeException toFlight(ErrorCode code, String message) {
        ErrorFlightMetadata metadata = new ErrorFlightMetadata();
        metadata.insert(WireFormat.ERROR_CODE_KEY, Integer.toString(code.code()));
        return statusOf(code).withDescription(message).withMetadata(metadata).toRuntimeException();
    }

    /** The Quiver error a peer sent, if this Flight error carries one. */
    public static Optional<TaskError> remoteError(FlightRuntimeException failure) {
        ErrorFlightMetadata metadata = failure.status().metadata();
        if (metadata == null || !metadata.containsKey(WireFormat.ERROR_CODE_KEY)) {
            return Optional.empty();
        }
        try {
            ErrorCode code = ErrorCode.fromCode(Integer.parseInt(metadata.get(WireFormat.ERROR_CODE_KEY)));
            String description = failure.status().description();
            return Optional.of(new TaskError(code, description == null ? "" : description));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** Whether the connection itself failed (nobody listens, or the peer went away). */
    public static boolean isUnavailable(FlightRuntimeException failure) {
        return failure.status().code() == FlightStatusCode.UNAVAILABLE;
    }

    /** The status code and description of a Flight error that carries no Quiver error, for messages. */
    public static String describe(FlightRuntimeException failure) {
        String description = failure.status().description();
        return failure.status().code() + (description == null || description.isEmpty() ? "" : ": " + description);
    }

    private static CallStatus statusOf(ErrorCode code) {
        if (code == ErrorCode.QUERY_CANCELLED) {
            return CallStatus.CANCELLED;
        }
        if (code == ErrorCode.EXCEEDED_MEMORY_LIMIT) {
            return CallStatus.RESOURCE_EXHAUSTED;
        }
        return switch (code.category()) {
            case USER_ERROR -> CallStatus.INVALID_ARGUMENT;
            default -> code == ErrorCode.WORKER_VERSION_MISMATCH || code == ErrorCode.PLAN_ERROR ? CallStatus.INVALID_ARGUMENT : CallStatus.INTERNAL;
        };
    }
}
