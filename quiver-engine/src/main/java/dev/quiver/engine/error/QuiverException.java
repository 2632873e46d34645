package dev.quiver.engine.error;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * The one exception type Quiver throws for a failed query. It carries an {@link ErrorCode} and
 * a message a user can act on, and optionally the position in the SQL text it refers to.
 */
public class QuiverException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final ErrorCode errorCode;
    private final SqlPosition position;

    public QuiverException(ErrorCode errorCode, String message) {
        this(errorCode, message, null, null);
    }

    public QuiverException(ErrorCode errorCode, String message, Throwable cause) {
        this(errorCode, message, null, cause);
    }

    public QuiverException(ErrorCode errorCode, String message, SqlPosition position, Throwable cause) {
        super(requireNonNull(message, "message is null"), cause);
        this.errorCode = requireNonNull(errorCode, "errorCode is null");
        this.position = position;
    }

    public ErrorCode errorCode() {
        return errorCode;
    }

    public Optional<SqlPosition> position() {
        return Optional.ofNullable(position);
    }

    /** One line for a user: the code name and the message. */
    public String userMessage() {
        return errorCode.name() + ": " + getMessage();
    }

    /** Where in the SQL text an error lies; line and column count from 1. */
    public record SqlPosition(int line, int column) {
        @Override
        public String toString() {
            return "line " + line + ", column " + column;
        }
    }
}
