package dev.quiver.distributed.coordinator;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.client.TaskControl;
import dev.quiver.distributed.protocol.TaskError;
import dev.quiver.distributed.protocol.TaskReport;
import dev.quiver.distributed.protocol.TaskState;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.execution.QuiverExecutor;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The end of a {@link DistributedQuery} (DESIGN §4, metrics finalization): publishes its
 * {@link FinalPlan} once every task has its final report, and is the last-resort watchdog that,
 * {@link CoordinatorConfig#finalizationTimeout()} after the end, marks the tasks still missing as
 * FAILED, aborts their streams and counts it in {@code metrics_finalization_timeouts}.
 */
final class MetricsFinalization {
    private final String queryId;
    private final TaskTracker tasks;
    private final Duration timeout;
    private final CoordinatorMetrics metrics;
    private final QuiverExecutor executor;
    private final Runnable completeIfFinal;
    private final CompletableFuture<FinalPlan> finalPlan = new CompletableFuture<>();

    /**
     * @param timeout how long after the end the watchdog waits for the final reports
     * @param completeIfFinal the query's check that builds and {@linkplain #publish publishes} the final plan once every task is final
     */
    MetricsFinalization(String queryId, TaskTracker tasks, Duration timeout, CoordinatorMetrics metrics, QuiverExecutor executor,
            Runnable completeIfFinal) {
        this.queryId = requireNonNull(queryId, "queryId is null");
        this.tasks = requireNonNull(tasks, "tasks is null");
        this.timeout = requireNonNull(timeout, "timeout is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
        this.executor = requireNonNull(executor, "executor is null");
        this.completeIfFinal = requireNonNull(completeIfFinal, "completeIfFinal is null");
    }

    /** Completes once every task of the query is terminal and its report is in. */
    CompletableFuture<FinalPlan> finalPlan() {
        return finalPlan;
    }

    /** Starts the watchdog, if the executor still takes work: without threads (the session is closing) the worker clients' close aborts what is left. */
    void startWatchdog() {
        DistributedQuery.tryExecute(executor, "finalize-" + queryId, this::awaitFinalReports);
    }

    /**
     * Closes the control streams, then completes the final plan with {@code done}. Closing a control
     * stream waits for its reader, which may be the very thread reporting the last final report: so it
     * runs on a thread of our own when the executor still takes work.
     */
    void publish(FinalPlan done, List<TaskControl> controls) {
        Runnable closeAndPublish = () -> {
            for (TaskControl control : controls) {
                try {
                    control.close();
                } catch (RuntimeException ignored) {
                    // the stream already delivered its final report; nothing is lost
                }
            }
            finalPlan.complete(done);
        };
        if (controls.isEmpty()) {
            closeAndPublish.run();
            return;
        }
        if (!DistributedQuery.tryExecute(executor, "close-controls-" + queryId, closeAndPublish)) {
            closeAndPublish.run();
        }
    }

    /** Completes the final plan of a query that never started: it has no tasks to wait for. */
    void publishEmpty(FinalPlan empty) {
        finalPlan.complete(empty);
    }

    private void awaitFinalReports() {
        try {
            finalPlan.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            metrics.finalizationTimedOut();
            giveUpOnMissingReports();
        } catch (InterruptedException e) {
            // the coordinator is closing; give up on what has not reported
            giveUpOnMissingReports();
        } catch (ExecutionException e) {
            // completed exceptionally: nothing left to wait for
        }
    }

    private void giveUpOnMissingReports() {
        for (TrackedTask task : tasks.missing()) {
            TaskControl control = tasks.control(task);
            if (control != null) {
                control.abort("no final report within " + timeout.toSeconds() + " s");
            }
            tasks.report(task, new TaskReport(task.id, task.worker, TaskState.FAILED, List.of(), Optional.of(new TaskError(ErrorCode.WORKER_LOST,
                    "worker " + task.worker + " sent no final report for task " + task.id + " within " + timeout.toSeconds() + " s"))));
        }
        completeIfFinal.run();
    }
}
