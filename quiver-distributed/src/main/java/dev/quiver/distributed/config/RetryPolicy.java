package dev.quiver.distributed.config;

/** What a distributed query does when it loses a worker ({@code distributed.retry_policy}; docs/cluster.md). */
public enum RetryPolicy {
    /** Fails at once, with an error naming the worker. */
    NONE,
    /**
     * Runs the whole query again on the workers that still answer (resolved again), at most
     * {@code distributed.query_retry_attempts} times, if no row has reached the client yet; after
     * rows were returned it fails instead of returning them twice.
     */
    QUERY
}
