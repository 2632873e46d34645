package dev.quiver.distributed.protocol;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;

/** Where a worker's Flight server listens. */
public record WorkerAddress(String host, int port) {
    public WorkerAddress {
        requireNonNull(host, "host is null");
        if (host.isBlank() || port < 1 || port > 65535) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "not a worker address: '" + host + ":" + port + "' (expected host:port)");
        }
    }

    /** Parses {@code host:port}. */
    public static WorkerAddress parse(String text) {
        requireNonNull(text, "text is null");
        int colon = text.lastIndexOf(':');
        if (colon <= 0 || colon == text.length() - 1) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "not a worker address: '" + text + "' (expected host:port)");
        }
        try {
            return new WorkerAddress(text.substring(0, colon).trim(), Integer.parseInt(text.substring(colon + 1).trim()));
        } catch (NumberFormatException e) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "not a worker address: '" + text + "' (the port is not a number)");
        }
    }

    @Override
    public String toString() {
        return host + ":" + port;
    }
}
