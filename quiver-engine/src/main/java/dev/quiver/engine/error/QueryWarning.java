package dev.quiver.engine.error;

import static java.util.Objects.requireNonNull;

/**
 * Something a query that succeeded tells its user besides its rows, such as the rows a scan with
 * {@code ignore_errors} skipped: a code to act on and a one-line message that says what happened
 * and why.
 */
public record QueryWarning(WarningCode code, String message) {
    public QueryWarning {
        requireNonNull(code, "code is null");
        requireNonNull(message, "message is null");
        if (message.isBlank() || message.contains("\n")) {
            throw new IllegalArgumentException("a warning's message is one non-blank line: '" + message + "'");
        }
    }
}
