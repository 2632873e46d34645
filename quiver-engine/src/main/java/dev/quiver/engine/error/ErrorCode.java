package dev.quiver.engine.error;

import static dev.quiver.engine.error.ErrorCategory.EXTERNAL;
import static dev.quiver.engine.error.ErrorCategory.INTERNAL;
import static dev.quiver.engine.error.ErrorCategory.RESOURCES;
import static dev.quiver.engine.error.ErrorCategory.USER_ERROR;

/**
 * Every error Quiver reports carries one of these codes. The numeric code is stable and survives
 * the trip from a worker to the client; the category says who can act on it.
 */
public enum ErrorCode {
    SYNTAX_ERROR(1, USER_ERROR),
    TABLE_NOT_FOUND(2, USER_ERROR),
    COLUMN_NOT_FOUND(3, USER_ERROR),
    TYPE_MISMATCH(4, USER_ERROR),
    FUNCTION_NOT_FOUND(5, USER_ERROR),
    DIVISION_BY_ZERO(6, USER_ERROR),
    NUMERIC_VALUE_OUT_OF_RANGE(7, USER_ERROR),
    INVALID_CAST(8, USER_ERROR),
    NOT_SUPPORTED(9, USER_ERROR),
    INVALID_ARGUMENT(10, USER_ERROR),
    INVALID_CONFIGURATION(11, USER_ERROR),
    QUERY_CANCELLED(12, USER_ERROR),
    SUBQUERY_MULTIPLE_ROWS(13, USER_ERROR),
    /** Two task-count requirements of one stage disagree, or one exceeds the task limit. */
    TASK_COUNT_CONFLICT(14, USER_ERROR),
    /** An aggregate where SQL does not allow one: nested in another, in WHERE or GROUP BY, or a column neither grouped nor aggregated. */
    INVALID_AGGREGATION(15, USER_ERROR),
    /** A server refused a call that brought no valid user and password or token. */
    UNAUTHENTICATED(16, USER_ERROR),
    /** A statement nested so deeply (expressions, subqueries, set operations) that parsing, planning or evaluating it overflowed a thread's stack. */
    STATEMENT_TOO_COMPLEX(17, USER_ERROR),

    INTERNAL_ERROR(0, INTERNAL),
    PLAN_ERROR(1, INTERNAL),

    EXCEEDED_MEMORY_LIMIT(0, RESOURCES),
    /** A recursive query (WITH RECURSIVE) still produced rows after its limit of iterations. */
    RECURSION_LIMIT_EXCEEDED(1, RESOURCES),
    /** A server's admission queue is full: as many queries wait as it holds. */
    QUERY_QUEUE_FULL(2, RESOURCES),
    /** A query waited in a server's admission queue longer than its timeout. */
    QUERY_QUEUE_TIMEOUT(3, RESOURCES),
    /** An operator could not write or read its spill files: a full disk, or a spill_directory that cannot be written. */
    SPILL_FAILED(4, RESOURCES),

    SOURCE_ERROR(0, EXTERNAL),
    WORKER_UNREACHABLE(1, EXTERNAL),
    REMOTE_TASK_FAILED(2, EXTERNAL),
    WORKER_VERSION_MISMATCH(3, EXTERNAL),
    /** A worker stopped answering (its process died, or heartbeats stopped) while a query ran on it. */
    WORKER_LOST(4, EXTERNAL);

    private final int code;
    private final ErrorCategory category;

    ErrorCode(int offset, ErrorCategory category) {
        this.code = category.codeBase() + offset;
        this.category = category;
    }

    public int code() {
        return code;
    }

    public ErrorCategory category() {
        return category;
    }

    /** Finds the code for a numeric value received from another process. */
    public static ErrorCode fromCode(int code) {
        for (ErrorCode value : values()) {
            if (value.code == code) {
                return value;
            }
        }
        return INTERNAL_ERROR;
    }
}
