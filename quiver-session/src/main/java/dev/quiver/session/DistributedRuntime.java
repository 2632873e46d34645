package dev.quiver.session;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.config.DistributedSettings;
import dev.quiver.distributed.config.UnreachableWorkers;
import dev.quiver.distributed.coordinator.Coordinator;
import dev.quiver.distributed.coordinator.PlannedQuery;
import dev.quiver.distributed.coordinator.QueryWorkers;
import dev.quiver.distributed.coordinator.RetryingQuery;
import dev.quiver.distributed.plan.DistributedPlannerSettings;
import dev.quiver.distributed.plan.TaskEstimators;
import dev.quiver.distributed.planner.AdaptivePlanning;
import dev.quiver.distributed.planner.DistributedPlanner;
import dev.quiver.distributed.planner.StageEventDispatcher;
import dev.quiver.distributed.planner.StageEvents;
import dev.quiver.distributed.worker.LocalCluster;
import dev.quiver.engine.config.Settings;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.QuiverExecutor;
import dev.quiver.engine.execution.TaskContext;
import java.util.List;
import java.util.Optional;

/**
 * What a session with workers holds for its distributed queries: the {@link Coordinator} and what
 * it runs on (the Flight connections, and the in-JVM workers of a local cluster), closed in that
 * order; and the planning of a physical plan into stages under the session's settings.
 */
final class DistributedRuntime implements AutoCloseable {
    /** A query planned into stages on {@code workers}, which it will be routed to. */
    record Planned(PlannedQuery query, QueryWorkers workers) {
        Planned {
            requireNonNull(query, "query is null");
            requireNonNull(workers, "workers is null");
        }
    }

    private final Coordinator coordinator;
    private final List<AutoCloseable> resources;
    private final Optional<LocalCluster> localCluster;
    private final StageEventDispatcher dispatcher;
    /** The session's threads, which ask the workers for their info. */
    private final QuiverExecutor executor;
    /** The built-in estimators and the session's ({@link QuerySession.Builder#taskEstimator}, plugins). */
    private final TaskEstimators estimators;

    /**
     * @param dispatcher the session's stage-event handlers
     * @param executor the threads the workers' info calls run on
     * @param estimators the task estimators the planner consults for the stages' source leaves
     */
    DistributedRuntime(Coordinator coordinator, List<AutoCloseable> resources, Optional<LocalCluster> localCluster, StageEventDispatcher dispatcher,
            QuiverExecutor executor, TaskEstimators estimators) {
        this.estimators = requireNonNull(estimators, "estimators is null");
        this.coordinator = requireNonNull(coordinator, "coordinator is null");
        this.resources = List.copyOf(requireNonNull(resources, "resources is null"));
        this.localCluster = requireNonNull(localCluster, "localCluster is null");
        this.dispatcher = requireNonNull(dispatcher, "dispatcher is null");
        this.executor = requireNonNull(executor, "executor is null");
    }

    Coordinator coordinator() {
        return coordinator;
    }

    Optional<LocalCluster> localCluster() {
        return localCluster;
    }

    /**
     * How {@code physical} runs on this cluster under {@code settings}: on the workers the resolver
     * names now that answer ({@link Coordinator#resolveWorkers}), planned for their number — the one
     * place that decides between static planning and AQE: with {@code distributed.dynamic_task_count=true}
     * nothing is sized before execution ({@link PlannedQuery.Adaptive}); otherwise every stage is sized
     * now from estimated statistics ({@link PlannedQuery.Static}). Either way every stage that feeds a
     * shuffle or broadcast fires its stage-built event at the session's handlers.
     */
    Planned plan(ExecutionPlan physical, Settings settings, String queryId) {
        return plan(physical, settings, queryId, coordinator.resolveWorkers(executor, settings));
    }

    /**
     * {@link #plan(ExecutionPlan, Settings, String)} for a query run again after it lost a worker:
     * the workers resolved again, those that do not answer skipped whatever
     * {@code distributed.unreachable_workers} says (the retry exists to route around a lost worker).
     */
    Planned replan(ExecutionPlan physical, Settings settings, String attemptId) {
        return plan(physical, settings, attemptId, coordinator.resolveWorkers(executor, settings, UnreachableWorkers.SKIP));
    }

    /** {@link #plan(ExecutionPlan, Settings, String)} on {@code workers}. */
    Planned plan(ExecutionPlan physical, Settings settings, String queryId, QueryWorkers workers) {
        DistributedPlanner planner = new DistributedPlanner(new DistributedPlannerSettings(workers.size(), settings), estimators);
        StageEvents events = new StageEvents(dispatcher, queryId, workers::memoryLimits);
        if (settings.get(DistributedSettings.DYNAMIC_TASK_COUNT)) {
            return new Planned(new PlannedQuery.Adaptive(physical, new AdaptivePlanning(planner, events)), workers);
        }
        return new Planned(new PlannedQuery.Static(planner.plan(physical, events).plan()), workers);
    }

    /**
     * A query over {@code first} ({@link #plan}), routed to the workers it was planned on; under
     * {@code distributed.retry_policy=QUERY} an attempt that loses a worker before any row reached
     * the client is planned again ({@link #replan}) and run as a new attempt.
     */
    RetryingQuery newQuery(String queryId, Planned first, TaskContext context, Settings settings) {
        Settings taskSettings = taskSettings(settings);
        ExecutionPlan physical = first.query().singleNodePlan();
        return coordinator.newRetryingQuery(queryId, settings, context, (number, attemptId, headContext) -> {
            Planned planned = number == 1 ? first : replan(physical, settings, attemptId);
            return coordinator.newQuery(attemptId, planned.query(), planned.workers(), headContext, taskSettings);
        });
    }

    /** The settings every task request carries, typed: the engine's and the distributed.* ones. */
    private static Settings taskSettings(Settings settings) {
        return settings.restrictTo(DistributedSettings.TASK_REGISTRY);
    }

    @Override
    public void close() {
        RuntimeException first = null;
        try {
            coordinator.close();
        } catch (RuntimeException e) {
            first = e;
        }
        for (AutoCloseable resource : resources) {
            try {
                resource.close();
            } catch (Exception e) {
                first = first == null ? new QuiverException(ErrorCode.INTERNAL_ERROR, "closing " + resource + " failed: " + e.getMessage(), e) : first;
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
