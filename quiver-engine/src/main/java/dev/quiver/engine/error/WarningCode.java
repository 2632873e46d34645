package dev.quiver.engine.error;

/** What a {@link QueryWarning} is about: a query that succeeded but did something the user should know of. */
public enum WarningCode {
    /** A CSV scan with {@code ignore_errors} skipped rows that do not read as the table's columns. */
    ROWS_SKIPPED,
    /** A JSON scan with {@code ignore_errors} read values (or whole lines) that do not read as their columns as NULL. */
    ERRORS_IGNORED,
    /** A distributed query left out a worker its resolver named, which did not answer ({@code distributed.unreachable_workers=SKIP}). */
    WORKER_SKIPPED,
    /** A distributed query lost a worker before any row reached the client and was run again ({@code distributed.retry_policy=QUERY}). */
    QUERY_RETRIED,
}
