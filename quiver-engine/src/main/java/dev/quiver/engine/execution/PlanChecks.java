package dev.quiver.engine.execution;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;

/**
 * The checks plan nodes, expressions and plan properties make when they are built (the
 * {@link ExecutionPlan} contract: invalid construction is {@link ErrorCode#PLAN_ERROR} naming the bad
 * input). Messages read {@code "SortExec: needs at least one key"}; {@code %s} in a message takes
 * the next argument, so the bad value is formatted only when the check fails.
 */
public final class PlanChecks {
    private PlanChecks() {}

    /** Fails with {@link ErrorCode#PLAN_ERROR} naming {@code node} unless {@code condition} holds. */
    public static void checkArgument(boolean condition, String node, String message, Object... args) {
        if (!condition) {
            throw planError(node, message, args);
        }
    }

    /** The PLAN_ERROR {@code "node: message"}, each {@code %s} of {@code message} replaced by the next of {@code args}. */
    public static QuiverException planError(String node, String message, Object... args) {
        StringBuilder text = new StringBuilder(node).append(": ");
        int from = 0;
        int arg = 0;
        int at;
        while (arg < args.length && (at = message.indexOf("%s", from)) >= 0) {
            text.append(message, from, at).append(args[arg++]);
            from = at + 2;
        }
        text.append(message, from, message.length());
        return new QuiverException(ErrorCode.PLAN_ERROR, text.toString());
    }
}
