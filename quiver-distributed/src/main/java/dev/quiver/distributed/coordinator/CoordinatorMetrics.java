package dev.quiver.distributed.coordinator;

import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counters of one {@link Coordinator}, across its queries. Thread-safe.
 *
 * <p>{@code metrics_finalization_timeouts} counts queries whose final plan was completed by the
 * last-resort timeout instead of by the final reports of all their tasks: it should stay 0, and the
 * tests assert that it does.
 */
public final class CoordinatorMetrics {
    public static final String METRICS_FINALIZATION_TIMEOUTS = "metrics_finalization_timeouts";
    public static final String QUERIES_STARTED = "queries_started";
    public static final String TASKS_DISPATCHED = "tasks_dispatched";
    public static final String QUERIES_RETRIED = "queries_retried";

    private final AtomicLong finalizationTimeouts = new AtomicLong();
    private final AtomicLong queriesStarted = new AtomicLong();
    private final AtomicLong tasksDispatched = new AtomicLong();
    private final AtomicLong queriesRetried = new AtomicLong();

    public long metricsFinalizationTimeouts() {
        return finalizationTimeouts.get();
    }

    public long queriesStarted() {
        return queriesStarted.get();
    }

    public long tasksDispatched() {
        return tasksDispatched.get();
    }

    /** How many times a query that lost a worker was run again ({@code distributed.retry_policy=QUERY}). */
    public long queriesRetried() {
        return queriesRetried.get();
    }

    /** Every counter by name. */
    public Map<String, Long> asMap() {
        return Map.of(METRICS_FINALIZATION_TIMEOUTS, metricsFinalizationTimeouts(), QUERIES_STARTED, queriesStarted(),
                TASKS_DISPATCHED, tasksDispatched(), QUERIES_RETRIED, queriesRetried());
    }

    void finalizationTimedOut() {
        finalizationTimeouts.incrementAndGet();
    }

    void queryStarted() {
        queriesStarted.incrementAndGet();
    }

    void queryRetried() {
        queriesRetried.incrementAndGet();
    }

    void taskDispatched() {
        tasksDispatched.incrementAndGet();
    }
}
