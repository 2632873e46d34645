package dev.quiver.server;

import dev.quiver.distributed.protocol.FlightErrors;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import org.apache.arrow.flight.FlightRuntimeException;

/**
 * How a statement's failure reaches a Flight SQL client: the status description is
 * {@code CODE: message} (what a JDBC client's {@code SQLException} message shows), the code also in
 * the error metadata as between workers ({@link FlightErrors}); cancellation is CANCELLED, a lack of
 * memory RESOURCE_EXHAUSTED, a user error INVALID_ARGUMENT.
 */
final class ServerErrors {
    private ServerErrors() {}

    static FlightRuntimeException toFlight(Throwable failure) {
        if (failure instanceof FlightRuntimeException flight) {
            return flight;
        }
        if (failure instanceof QuiverException quiver) {
            return FlightErrors.toFlight(quiver.errorCode(), quiver.userMessage());
        }
        return toFlight(ErrorCode.INTERNAL_ERROR, "The server failed: " + failure);
    }

    static FlightRuntimeException toFlight(ErrorCode code, String message) {
        return toFlight(new QuiverException(code, message));
    }
}
