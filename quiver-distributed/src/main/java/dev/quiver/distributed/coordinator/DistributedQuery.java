package dev.quiver.distributed.coordinator;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.client.TaskControl;
import dev.quiver.distributed.client.WorkerClient;
import dev.quiver.distributed.config.DistributedSettings;
import dev.quiver.distributed.coordinator.spi.QueryEvent.Outcome;
import dev.quiver.distributed.coordinator.spi.QueryEvent;
import dev.quiver.distributed.operator.InOrderCoalesceExec;
import dev.quiver.distributed.plan.DistributedPlan;
import dev.quiver.distributed.plan.Stage;
import dev.quiver.distributed.plan.TaskRouter;
import dev.quiver.distributed.protocol.OperatorMetricsSnapshot;
import dev.quiver.distributed.protocol.PartitionSample;
import dev.quiver.distributed.protocol.ProducerHead;
import dev.quiver.distributed.protocol.TaskId;
import dev.quiver.distributed.protocol.TaskRequest;
import dev.quiver.distributed.protocol.TaskState;
import dev.quiver.distributed.protocol.WorkerAddress;
import dev.quiver.engine.config.Settings;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.JvmErrors;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.PlanExecutor;
import dev.quiver.engine.execution.QuiverExecutor;
import dev.quiver.engine.execution.TaskContext;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * One distributed query on the coordinator: dispatches its stages producers first, runs the head
 * stage locally, tracks every task's state, ends the query on every worker and collects the final
 * reports.
 *
 * <h2>Life</h2>
 * <pre>
 *   NEW --start()--> RUNNING --head finished / failed / closed early / cancel()--> ENDING --all final reports--> DONE
 * </pre>
 * {@link #start()} takes its workers (asked and checked when the query was planned, or now: see
 * {@link Coordinator#resolveWorkers}; each one skipped is a {@link QueryEvent.WorkerSkipped} event and
 * a warning of the final plan), then for each stage in order: closes it (its inputs are
 * dispatched), keeps the task count the planner chose (with adaptive task counts the
 * {@link AdaptiveDispatch} sizes it instead), and dispatches its tasks (binding their stage inputs to
 * the producers' workers and their producer head to the consumer's task count). The head stage runs
 * on the caller's {@link TaskContext}; its stream is the query's result.
 *
 * <h2>Ending and metrics finalization (DESIGN §4)</h2>
 * When the result stream ends, fails or is closed, or the query is cancelled, every task's control
 * stream is half-closed ({@link TaskControl#endQuery()}); each worker answers with the task's final
 * state (SKIPPED with empty metrics if it never executed) and completes. {@link #finalPlan()}
 * completes when every dispatched task has its final report, so it never waits for a task that will
 * not run. A last-resort watchdog completes it after {@link CoordinatorConfig#finalizationTimeout()}
 * and counts that in {@code metrics_finalization_timeouts} ({@link MetricsFinalization}). The tasks'
 * states and reports are kept by a {@link TaskTracker}.
 *
 * <h2>Failures</h2>
 * A task reporting FAILED, or a broken control stream, fails the query with an error naming the stage
 * and the worker (keeping the task's error code), ends every other task and fails the result stream.
 * A query does not retry itself: {@link RetryingQuery} runs it again as a new query when it lost a worker.
 */
public final class DistributedQuery implements AutoCloseable {
    private enum Phase { NEW, RUNNING, ENDING, DONE }

    private final String queryId;
    /** The planned stages, or with adaptive task counts what AQE plans them with as the query runs. */
    private final PlannedQuery planned;
    private volatile AdaptiveDispatch adaptiveLoop;
    /** Where the query runs, asked once at {@link #start()}. */
    private final Supplier<QueryWorkers> workerSource;
    private final Map<WorkerAddress, WorkerClient> workers = new LinkedHashMap<>();
    private List<String> warnings = List.of();
    private final TaskContext headContext;
    private final Settings taskSettings;
    private final CoordinatorConfig config;
    private final CoordinatorMetrics metrics;
    private final QueryEvents events;
    /** Guards the phase, the outcome, the failure and the tasks ({@link TaskTracker} shares it). */
    private final Object lock = new Object();
    private final TaskTracker tasks;
    private final MetricsFinalization finalization;
    private Phase phase = Phase.NEW;
    private Outcome outcome;
    private QuiverException failure;
    private boolean cancelled;
    private ExecutionPlan headPlan;

    /** With {@link PlannedQuery.Adaptive} the query has adaptive task counts (DESIGN §5): {@link #start()} sizes its stages ({@link AdaptiveDispatch}). */
    DistributedQuery(String queryId, PlannedQuery planned, Supplier<QueryWorkers> workerSource, TaskContext headContext,
            Settings taskSettings, CoordinatorConfig config, CoordinatorMetrics metrics, QueryEvents events) {
        this.queryId = requireNonNull(queryId, "queryId is null");
        this.planned = requireNonNull(planned, "planned is null");
        this.workerSource = requireNonNull(workerSource, "workerSource is null");
        this.headContext = requireNonNull(headContext, "headContext is null");
        this.taskSettings = requireNonNull(taskSettings, "taskSettings is null");
        this.config = requireNonNull(config, "config is null");
        this.metrics = requireNonNull(metrics, "metrics is null");
        this.events = requireNonNull(events, "events is null");
        boolean collectMetrics = taskSettings.get(DistributedSettings.COLLECT_METRICS);
        this.tasks = new TaskTracker(lock, events, collectMetrics, this::fail, this::completeIfFinal, this::onSample);
        this.finalization = new MetricsFinalization(queryId, tasks, config.finalizationTimeout(), metrics, headContext.executor(),
                this::completeIfFinal);
    }

    public String queryId() {
        return queryId;
    }

    /**
     * Checks the workers, dispatches every stage and starts the head stage; returns the query's
     * result stream. May be called once.
     *
     * @throws QuiverException WORKER_UNREACHABLE, WORKER_VERSION_MISMATCH, or the error of a task that could not be started
     */
    public BatchStream start() {
        synchronized (lock) {
            if (phase != Phase.NEW) {
                throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "distributed query " + queryId + " was already started");
            }
            phase = Phase.RUNNING;
        }
        metrics.queryStarted();
        try {
            QueryWorkers routed = workerSource.get();
            List<QueryEvent.WorkerSkipped> skipped = routed.skipped().stream()
                    .map(skip -> new QueryEvent.WorkerSkipped(queryId, skip.worker(), skip.reason())).toList();
            synchronized (lock) {
                routed.clients().forEach(worker -> workers.put(worker.address(), worker));
                warnings = skipped.stream().map(QueryEvent.WorkerSkipped::warning).toList();
            }
            skipped.forEach(events::emit);
            if (planned instanceof PlannedQuery.Adaptive adaptive) {
                startAdaptive(adaptive);
            } else {
                startStatic(((PlannedQuery.Static) planned).plan());
            }
            QuiverException early = failureOrCancel();
            if (early != null) {
                throw early;
            }
            return new HeadStageStream(PlanExecutor.executeAll(headPlan, headContext), this);
        } catch (RuntimeException | StackOverflowError e) {
            // a stack overflow too (a plan too deep to encode): the tasks already started must still end
            QuiverException error = failureOrCancel() != null ? failureOrCancel() : asQuiver(e, "Starting distributed query " + queryId);
            recordFailure(error);
            queryEnded(cancelled ? Outcome.CANCELLED : Outcome.FAILED, error);
            endTasks();
            throw error;
        }
    }

    /** AQE: stages are sized as they close, from their inputs' samples (the loop keeps the plan as it grows). */
    private void startAdaptive(PlannedQuery.Adaptive adaptive) {
        AdaptiveDispatch loop = new AdaptiveDispatch(this, adaptive.planning(), adaptive.singleNodePlan(), List.copyOf(workers.keySet()));
        adaptiveLoop = loop;
        loop.run().ifPresent(head -> headPlan = head);
    }

    /** Static task counts: each stage is closed, keeps the planner's count and is dispatched, one at a time. */
    private void startStatic(DistributedPlan plan) {
        Map<Integer, List<WorkerAddress>> placed = new HashMap<>();
        TaskRouter router = new TaskRouter(List.copyOf(workers.keySet()));
        for (Stage stage : plan.stages()) {
            if (isEnding()) {
                break;
            }
            events.emit(new QueryEvent.StageClosed(queryId, stage.stageId(), stage.inputStageIds()));
            emitSized(stage);
            if (stage.isHead()) {
                headPlan = bindHead(stage, placed);
            } else {
                List<WorkerAddress> placement = router.place(stage);
                sendTasks(stage, taskRequests(stage, placed, Optional.of(StageBinding.producerHead(plan, stage)), UnaryOperator.identity()), placement);
                placed.put(stage.stageId(), placement);
            }
        }
    }

    // ---- what static dispatch and the adaptive loop share ------------------------------------------

    void emit(QueryEvent event) {
        events.emit(event);
    }

    /** The {@code StageSized} event of {@code stage}, as it is dispatched. */
    void emitSized(Stage stage) {
        events.emit(new QueryEvent.StageSized(queryId, stage.stageId(), stage.taskCount(), stage.partitionsPerTask(), stage.taskCountHint()));
    }

    /**
     * One request per task of {@code stage}: task t's plan with its inputs bound to where the producer
     * tasks ({@code placed}) run, then wrapped by {@code wrap}, with {@code head} on top.
     */
    List<TaskRequest> taskRequests(Stage stage, Map<Integer, List<WorkerAddress>> placed, Optional<ProducerHead> head, UnaryOperator<ExecutionPlan> wrap) {
        List<TaskRequest> requests = new ArrayList<>();
        for (int t = 0; t < stage.taskCount(); t++) {
            ExecutionPlan bound = StageBinding.bind(stage.taskPlans().get(t), queryId, t, placed);
            requests.add(new TaskRequest(new TaskId(queryId, stage.stageId(), t), wrap.apply(bound), head, taskSettings, config.version()));
        }
        return requests;
    }

    /** Sends request t to {@code placement.get(t)} (until the query ends), then announces the stage's dispatch. */
    void sendTasks(Stage stage, List<TaskRequest> requests, List<WorkerAddress> placement) {
        for (int t = 0; t < requests.size() && !isEnding(); t++) {
            startTask(requests.get(t), placement.get(t));
        }
        events.emit(new QueryEvent.StageDispatched(queryId, stage.stageId(), placement));
    }

    /** The head stage's plan with its inputs bound (a limit's coalesce reads them in order); announces its dispatch: it runs here. */
    ExecutionPlan bindHead(Stage head, Map<Integer, List<WorkerAddress>> placed) {
        ExecutionPlan bound = InOrderCoalesceExec.rewrite(StageBinding.bind(head.plan(), queryId, 0, placed));
        events.emit(new QueryEvent.StageDispatched(queryId, head.stageId(), List.of()));
        return bound;
    }

    /** Opens the task's control stream; a task that cannot be started fails the query. */
    private void startTask(TaskRequest request, WorkerAddress worker) {
        TrackedTask task = tasks.add(request.taskId(), worker);
        TaskControl control;
        try {
            control = workers.get(worker).startTask(request, tasks.listener(task));
        } catch (RuntimeException e) {
            QuiverException error = asQuiver(e, "Could not start task " + task.id + " of stage " + task.id.stageId() + " on worker " + worker);
            tasks.failed(task, error);
            throw error;
        }
        metrics.taskDispatched();
        boolean endNow;
        synchronized (lock) {
            tasks.opened(task, control);
            endNow = phase == Phase.ENDING || phase == Phase.DONE;
        }
        if (endNow) {
            tasks.end(task);
        }
    }

    // ---- what the head stage's stream reports ------------------------------------------------------

    /**
     * The head stage's stream ended. Returns the failure to throw instead of the end if a task failed
     * meanwhile: an input that ended because its producer was stopped must not pass for a complete result.
     */
    Optional<QuiverException> headFinished() {
        QuiverException failed = failureOrCancel();
        queryEnded(failed == null ? Outcome.FINISHED : cancelled ? Outcome.CANCELLED : Outcome.FAILED, failed);
        endTasks();
        return Optional.ofNullable(failed);
    }

    void headClosed() {
        queryEnded(cancelled ? Outcome.CANCELLED : Outcome.CLOSED_EARLY, null);
        endTasks();
    }

    /**
     * The head stage failed with {@code error}: prefers the failure a control stream reported (it
     * names the stage and worker), waiting up to the failure grace for it, since a data stream from a
     * dead worker usually breaks at the same moment as its control stream.
     */
    QuiverException headFailed(Throwable error) {
        endTasks();
        QuiverException reported;
        synchronized (lock) {
            long deadline = System.nanoTime() + config.failureGrace().toNanos();
            while (failure == null && !cancelled && !tasks.allFinal()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    break;
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(lock, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            reported = failure != null ? failure : asQuiver(error, "Distributed query " + queryId);
        }
        recordFailure(reported);
        queryEnded(cancelled && failure == reported && reported.errorCode() == ErrorCode.QUERY_CANCELLED ? Outcome.CANCELLED : Outcome.FAILED, reported);
        return reported;
    }

    // ---- cancellation and ending -------------------------------------------------------------------

    /** Stops the query: the result stream fails with QUERY_CANCELLED and every task ends CANCELLED or SKIPPED. */
    public void cancel(String reason) {
        synchronized (lock) {
            if (outcome != null) {
                return;
            }
            cancelled = true;
        }
        headContext.cancel(reason);
        queryEnded(Outcome.CANCELLED, new QuiverException(ErrorCode.QUERY_CANCELLED, "Query " + queryId + " was cancelled: " + reason));
        endTasks();
    }

    private void fail(QuiverException error) {
        synchronized (lock) {
            if (outcome != null || failure != null) {
                return;
            }
        }
        recordFailure(error);
        headContext.fail(error);
        queryEnded(Outcome.FAILED, error);
        // not on the transport thread that told us: ending the other tasks writes to their streams
        if (!tryExecute(headContext.executor(), "end-" + queryId, this::endTasks)) {
            endTasks();
        }
    }

    private void recordFailure(QuiverException error) {
        synchronized (lock) {
            if (failure == null) {
                failure = error;
            }
            lock.notifyAll();
        }
    }

    private QuiverException failureOrCancel() {
        synchronized (lock) {
            if (failure != null) {
                return failure;
            }
            return cancelled ? new QuiverException(ErrorCode.QUERY_CANCELLED, "Query " + queryId + " was cancelled") : null;
        }
    }

    private void queryEnded(Outcome how, QuiverException error) {
        synchronized (lock) {
            if (outcome != null) {
                return;
            }
            outcome = how;
        }
        events.emit(new QueryEvent.QueryEnded(queryId, how, Optional.ofNullable(error).map(QuiverException::userMessage)));
    }

    boolean isEnding() {
        synchronized (lock) {
            return phase != Phase.RUNNING || failure != null || cancelled;
        }
    }

    /** Half-closes every task's control stream (once) and starts the last-resort finalization watchdog. */
    private void endTasks() {
        List<TrackedTask> toEnd;
        synchronized (lock) {
            if (phase == Phase.ENDING || phase == Phase.DONE) {
                return;
            }
            phase = Phase.ENDING;
            toEnd = tasks.all();
        }
        for (TrackedTask task : toEnd) {
            tasks.end(task);
        }
        finalization.startWatchdog();
        completeIfFinal();
    }

    private void onSample(TaskId task, PartitionSample sample) {
        AdaptiveDispatch loop = adaptiveLoop;
        if (loop != null) {
            loop.onSample(task, sample);
        }
    }

    /** Once the query is ending and every task has its final report, publishes the final plan (once). */
    private void completeIfFinal() {
        FinalPlan done;
        List<TaskControl> controls;
        synchronized (lock) {
            if (phase != Phase.ENDING || !tasks.allFinal()) {
                return;
            }
            phase = Phase.DONE;
            List<OperatorMetricsSnapshot> head = headPlan == null ? List.of() : OperatorMetricsSnapshot.of(headPlan);
            AdaptiveDispatch loop = adaptiveLoop;
            done = new FinalPlan(queryId, loop == null ? unstartedPlan() : loop.finalPlan(), tasks.reports(), head, Optional.ofNullable(failure),
                    loop == null ? Map.of() : loop.decisions(), warnings);
            controls = tasks.controls();
        }
        finalization.publish(done, controls);
    }

    // ---- views for the handle ----------------------------------------------------------------------

    /** Completes once every task of the query is terminal and its report is in; never waits for a task that will not run. */
    public CompletableFuture<FinalPlan> finalPlan() {
        return finalization.finalPlan();
    }

    /** The events so far, in order. */
    public List<QueryEvent> events() {
        return events.snapshot();
    }

    /** Each dispatched task's last known state. */
    public Map<TaskId, TaskState> taskStates() {
        return tasks.states();
    }

    /** Ends the query if it still runs (a handle closed without reading its results); does not wait for the final reports. */
    @Override
    public void close() {
        boolean neverStarted;
        synchronized (lock) {
            neverStarted = phase == Phase.NEW;
            if (neverStarted) {
                phase = Phase.DONE;
            }
        }
        if (neverStarted) {
            finalization.publishEmpty(new FinalPlan(queryId, unstartedPlan(), List.of(), List.of(), Optional.empty()));
            return;
        }
        queryEnded(cancelled ? Outcome.CANCELLED : Outcome.CLOSED_EARLY, null);
        endTasks();
    }

    /** The plan a final report shows when AQE never ran: the static plan, or the single-node plan standing in as the head stage. */
    private DistributedPlan unstartedPlan() {
        if (planned instanceof PlannedQuery.Static fixed) {
            return fixed.plan();
        }
        ExecutionPlan single = planned.singleNodePlan();
        return new DistributedPlan(single, List.of(AdaptiveDispatch.unsizedHead(0, single, "the query ended before AQE sized its stages")));
    }

    /** Runs {@code task} on a thread of {@code executor}; false if the executor no longer takes work (it is closing). */
    static boolean tryExecute(QuiverExecutor executor, String name, Runnable task) {
        try {
            executor.execute(name, task);
            return true;
        } catch (RejectedExecutionException e) {
            return false;
        }
    }

    static QuiverException asQuiver(Throwable error, String context) {
        if (error instanceof QuiverException quiver) {
            return quiver;
        }
        return JvmErrors.translate(error, context, "planning or running it");
    }
}
