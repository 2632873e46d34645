package dev.quiver.distributed.coordinator;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.config.DistributedSettings;
import dev.quiver.distributed.config.RetryPolicy;
import dev.quiver.distributed.coordinator.spi.QueryEvent;
import dev.quiver.distributed.protocol.TaskId;
import dev.quiver.distributed.protocol.TaskState;
import dev.quiver.engine.config.Settings;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.TaskContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A distributed query as its client sees it: one {@link DistributedQuery}, or with
 * {@code distributed.retry_policy=QUERY} a run of attempts, each planned afresh on the workers that
 * answer at the time (docs/cluster.md).
 *
 * <h2>Life</h2>
 * <pre>
 *   attempt 1 planned (construction) --start()--> running --its rows end / it fails / close / cancel--> settled
 *                                                    |
 *                                                    +-- lost a worker, no row returned yet, attempts left:
 *                                                        end it (await its final reports), plan attempt n+1, run it
 * </pre>
 * A failure is a lost worker when its code is WORKER_LOST or WORKER_UNREACHABLE, or a remote task's
 * failure that reports one of them (a task that read from the lost worker): never a user error, a
 * memory limit or a cancellation. It is retried only while no row has been returned to the client
 * (counted in {@link #start()}'s stream, so rows written into a sink count too), at most
 * {@code distributed.query_retry_attempts} times. Otherwise the attempt's error is the query's;
 * when rows had already been returned, an error that says so. Each retry is a
 * {@link QueryEvent.QueryRetried} event (after the failed attempt's own events) and a warning of the
 * final plan, so EXPLAIN ANALYZE shows it. Attempt n ≥ 2 runs as {@code <queryId>-r<n-1>} on the
 * workers: its tasks never mix with the failed attempt's, whose tasks were all ended first.
 *
 * <p>Each attempt's head stage runs in a {@link TaskContext} of its own (a failed attempt's context
 * stays failed), over the allocator, pool, executor and configuration of the query's context; they
 * are closed with this query. Thread-safe: the stream is read by one thread, {@link #cancel} and
 * {@link #close} may come from any.
 */
public final class RetryingQuery implements AutoCloseable {
    /** How attempts are planned: attempt 1 as the query was planned, later ones on the workers resolved again. */
    @FunctionalInterface
    public interface Attempts {
        /**
         * Plans attempt {@code number} (from 1) as the query {@code attemptId}, its head stage to run in
         * {@code headContext}. From attempt 2 on, the workers are resolved again and those that do not
         * answer are skipped, whatever {@code distributed.unreachable_workers} says: the retry exists
         * to route around a lost worker.
         */
        DistributedQuery plan(int number, String attemptId, TaskContext headContext);
    }

    /** How long a failed attempt's tasks may take to report their end before the next attempt starts anyway. */
    private static final Duration ENDED_ATTEMPT_WAIT = Duration.ofSeconds(10);

    private final String queryId;
    private final RetryPolicy policy;
    private final int maxRetries;
    private final TaskContext parent;
    private final Map<Class<?>, Object> services;
    private final Attempts attempts;
    private final QueryEvents events;
    private final CoordinatorMetrics metrics;
    private final Object lock = new Object();
    /** The attempts that lost a worker, in order, and the retry event of each. */
    private final List<DistributedQuery> failedAttempts = new ArrayList<>();
    private final List<QueryEvent.QueryRetried> retries = new ArrayList<>();
    private final List<String> warnings = new ArrayList<>();
    private final List<TaskContext> contexts = new ArrayList<>();
    private final CompletableFuture<FinalPlan> finalPlan = new CompletableFuture<>();
    private DistributedQuery current;
    private boolean started;
    private boolean settled;
    private boolean cancelled;

    /**
     * Plans attempt 1 now.
     *
     * @param settings the query's settings ({@code distributed.retry_policy}, {@code distributed.query_retry_attempts})
     * @param parent the query's context, whose allocator, pool, executor and configuration every attempt uses
     * @param services the services each attempt's head context offers ({@link Coordinator#headServices()})
     */
    RetryingQuery(String queryId, Settings settings, TaskContext parent, Map<Class<?>, Object> services, Attempts attempts, QueryEvents events,
            CoordinatorMetrics metrics) {
        this.queryId = requireNonNull(queryId, "queryId is null");
        this.policy = settings.get(DistributedSettings.RETRY_POLICY);
        this.maxRetries = policy == RetryPolicy.QUERY ? settings.get(DistributedSettings.QUERY_RETRY_ATTEMPTS) : 0;
        this.parent = requireNonNull(parent, "parent is null");
        this.services = Map.copyOf(requireNonNull(services, "services is null"));
        this.attempts = requireNonNull(attempts, "attempts is null");
        this.events = requireNonNull(events, "events is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
        this.current = planAttempt(1, queryId);
    }

    public String queryId() {
        return queryId;
    }

    /**
     * Starts attempt 1 (and, when it loses a worker before it could start, the next ones) and
     * returns the query's result stream. May be called once.
     */
    public BatchStream start() {
        synchronized (lock) {
            if (started) {
                throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "distributed query " + queryId + " was already started");
            }
            started = true;
        }
        return new RetryingStream(this, startAttempt(0));
    }

    /** Starts the current attempt; while it fails to start because it lost a worker, runs the next one. */
    BatchStream startAttempt(long rowsReturned) {
        while (true) {
            DistributedQuery attempt = current();
            try {
                return attempt.start();
            } catch (QuiverException e) {
                retryOrThrow(e, rowsReturned);
            }
        }
    }

    /**
     * The current attempt failed with {@code error} after {@code rowsReturned} rows reached the
     * client (its stream, if any, closed): returns once the next attempt is planned, or throws the
     * query's error (and settles the final plan) when the failure is not retried.
     */
    void retryOrThrow(QuiverException error, long rowsReturned) {
        boolean retry;
        synchronized (lock) {
            retry = policy == RetryPolicy.QUERY && rowsReturned == 0 && !cancelled && retries.size() < maxRetries && isWorkerLoss(error);
        }
        if (!retry) {
            settle();
            throw queryError(error, rowsReturned);
        }
        DistributedQuery failed = current();
        awaitEnded(failed);
        int number;
        synchronized (lock) {
            number = retries.size() + 2;
        }
        String retryId = queryId + "-r" + (number - 1);
        String why = error.errorCode() + ": " + error.getMessage();
        QueryEvent.QueryRetried retried = new QueryEvent.QueryRetried(failed.queryId(), number, retryId, why);
        DistributedQuery next;
        try {
            next = planAttempt(number, retryId);
        } catch (RuntimeException e) {
            settle();
            QuiverException cause = DistributedQuery.asQuiver(e, "Planning attempt " + number + " of " + queryId);
            QuiverException failure = new QuiverException(cause.errorCode(), "query " + queryId + " lost a worker (" + why + ") and could not run again: "
                    + cause.getMessage(), cause);
            failure.addSuppressed(error);
            throw failure;
        }
        boolean stop;
        synchronized (lock) {
            stop = cancelled;
            if (!stop) {
                failedAttempts.add(failed);
                retries.add(retried);
                warnings.add(retried.warning());
                current = next;
            }
        }
        if (stop) {
            next.close();
            settle();
            throw new QuiverException(ErrorCode.QUERY_CANCELLED, "Query " + queryId + " was cancelled while it was run again after: " + why);
        }
        metrics.queryRetried();
        events.emit(retried);
    }

    private QuiverException queryError(QuiverException error, long rowsReturned) {
        if (policy != RetryPolicy.QUERY || !isWorkerLoss(error)) {
            return error;
        }
        if (rowsReturned > 0) {
            return new QuiverException(error.errorCode(), "query " + queryId + " lost a worker after " + rowsReturned + " rows had reached the client, "
                    + "so it is not run again (distributed.retry_policy=QUERY would return those rows twice): " + error.getMessage(), error);
        }
        int done;
        synchronized (lock) {
            done = retries.size();
        }
        return done == 0 ? error : new QuiverException(error.errorCode(), error.getMessage() + " (attempt " + (done + 1) + "; query " + queryId + " was run "
                + done + " time(s) again already, distributed.query_retry_attempts=" + maxRetries + ")", error);
    }

    /**
     * Whether {@code error} says that a worker of the query was lost, as opposed to a failure of the
     * query itself (a user error, a memory limit, a cancellation), which would fail again.
     */
    static boolean isWorkerLoss(QuiverException error) {
        ErrorCode code = error.errorCode();
        if (code == ErrorCode.WORKER_LOST || code == ErrorCode.WORKER_UNREACHABLE) {
            return true;
        }
        // a task that read from the lost worker: its error names the reader's code, then the cause's
        String message = error.getMessage();
        return code == ErrorCode.REMOTE_TASK_FAILED && message != null
                && (message.contains(ErrorCode.WORKER_LOST.name() + ": ") || message.contains(ErrorCode.WORKER_UNREACHABLE.name() + ": "));
    }

    private DistributedQuery planAttempt(int number, String attemptId) {
        TaskContext context = new TaskContext(attemptId, parent.allocator(), parent.memoryPool(), parent.executor(), parent.config(), services);
        synchronized (lock) {
            contexts.add(context);
        }
        return attempts.plan(number, attemptId, context);
    }

    /** Waits (bounded) until every task of the failed attempt reported its end: nothing of it is left on the workers the next one uses. */
    private static void awaitEnded(DistributedQuery failed) {
        try {
            failed.finalPlan().get(ENDED_ATTEMPT_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new QuiverException(ErrorCode.QUERY_CANCELLED, "interrupted while ending attempt " + failed.queryId());
        } catch (ExecutionException | TimeoutException e) {
            // its watchdog completes it later and counts that; the next attempt's tasks are its own
        }
    }

    private DistributedQuery current() {
        synchronized (lock) {
            return current;
        }
    }

    /** The query's final plan is the current attempt's, with the warnings of the retries before its own. */
    void settle() {
        DistributedQuery last;
        List<String> earlier;
        synchronized (lock) {
            if (settled) {
                return;
            }
            settled = true;
            last = current;
            earlier = List.copyOf(warnings);
        }
        last.finalPlan().whenComplete((plan, error) -> {
            if (error != null) {
                finalPlan.completeExceptionally(error);
            } else {
                finalPlan.complete(earlier.isEmpty() ? plan : plan.withWarningsBefore(earlier));
            }
        });
    }

    /** Stops the query: the result stream fails with QUERY_CANCELLED and every task of the current attempt ends. */
    public void cancel(String reason) {
        DistributedQuery attempt;
        synchronized (lock) {
            cancelled = true;
            attempt = current;
        }
        attempt.cancel(reason);
        settle();
    }

    /**
     * Completes once every task of the last attempt is terminal and its report is in; its warnings
     * begin with the retries before it.
     */
    public CompletableFuture<FinalPlan> finalPlan() {
        return finalPlan;
    }

    /** The events so far: each failed attempt's, then its {@link QueryEvent.QueryRetried}, then the current attempt's. */
    public List<QueryEvent> events() {
        synchronized (lock) {
            List<QueryEvent> all = new ArrayList<>();
            for (int i = 0; i < failedAttempts.size(); i++) {
                all.addAll(failedAttempts.get(i).events());
                all.add(retries.get(i));
            }
            all.addAll(current.events());
            return List.copyOf(all);
        }
    }

    /** The current attempt's tasks and their last known states. */
    public Map<TaskId, TaskState> taskStates() {
        return current().taskStates();
    }

    /** Ends the query if it still runs (does not wait for the final reports) and closes the attempts' contexts. */
    @Override
    public void close() {
        DistributedQuery attempt;
        List<TaskContext> toClose;
        synchronized (lock) {
            attempt = current;
            toClose = List.copyOf(contexts);
        }
        RuntimeException first = null;
        try {
            attempt.close();
        } catch (RuntimeException e) {
            first = e;
        }
        settle();
        for (TaskContext context : toClose) {
            try {
                context.close();
            } catch (RuntimeException e) {
                first = first == null ? e : first;
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
