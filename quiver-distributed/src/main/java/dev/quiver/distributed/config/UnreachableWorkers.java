package dev.quiver.distributed.config;

/** What a query does with a listed worker that does not answer before it starts ({@code distributed.unreachable_workers}). */
public enum UnreachableWorkers {
    /** Plans and runs the query on the workers that answer, with a warning naming the one left out (in the query's events and EXPLAIN ANALYZE). */
    SKIP,
    /** Fails the query with WORKER_UNREACHABLE naming the worker. */
    FAIL
}
