package dev.quiver.engine.error;

import static java.util.Objects.requireNonNull;

/**
 * Turns the JVM errors a query can cause into Quiver errors a user can act on. A statement nested
 * thousands of levels deep overflows the stack of whichever thread walks it (Calcite's parser and
 * validator, the plan codec, expression evaluation); that {@link StackOverflowError} is the
 * statement's fault, has already unwound, and must fail the one query with a message, not the thread
 * silently nor the process.
 */
public final class JvmErrors {
    private JvmErrors() {}

    /** Whether {@code failure} or one of its causes is a stack overflow. */
    public static boolean isStackOverflow(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof StackOverflowError) {
                return true;
            }
        }
        return false;
    }

    /** The user's error for a stack overflow while {@code doing} (e.g. "parsing the statement"). */
    public static QuiverException stackOverflow(String doing, Throwable failure) {
        requireNonNull(doing, "doing is null");
        return new QuiverException(ErrorCode.STATEMENT_TOO_COMPLEX, "The statement is nested too deeply: the stack overflowed while " + doing
                + "; write deep chains of operators, CASEs or subqueries flatter (e.g. IN lists, CASE with many WHENs, joins)", failure);
    }

    /**
     * {@code failure} as a Quiver error: itself if it is one, {@link #stackOverflow} for a stack
     * overflow, else INTERNAL_ERROR naming it, with {@code what} (e.g. "The statement") in front.
     */
    public static QuiverException translate(Throwable failure, String what, String doing) {
        if (failure instanceof QuiverException quiver) {
            return quiver;
        }
        if (isStackOverflow(failure)) {
            return stackOverflow(doing, failure);
        }
        return new QuiverException(ErrorCode.INTERNAL_ERROR, what + " failed: " + failure, failure);
    }
}
