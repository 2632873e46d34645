package dev.quiver.session;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.config.DistributedSettings;
import dev.quiver.distributed.coordinator.Coordinator;
import dev.quiver.distributed.coordinator.DistributedQuery;
import dev.quiver.distributed.coordinator.PlannedQuery;
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
import dev.quiver.engine.execution.TaskContext;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What a session with workers holds for its distributed queries: the {@link Coordinator} and what
 * it runs on (the Flight connections, and the in-JVM workers of a local cluster), closed in that
 * order; and the planning of a physical plan into stages under the session's settings.
 */
final class DistributedRuntime implements AutoCloseable {
    private final Coordinator coordinator;
    private final List<AutoCloseable> resources;
    private final Optional<LocalCluster> localCluster;
    private final StageEventDispatcher dispatcher;
    private final Supplier<List<Long>> memoryLimits;
    /** The built-in estimators and the session's ({@link QuerySession.Builder#taskEstimator}, plugins). */
    private final TaskEstimators estimators;
    private List<Long> knownMemoryLimits;

    /**
     * @param dispatcher the session's stage-event handlers
     * @param memoryLimits each worker's memory limit (asked of the workers at most once, when a
     *     handler first needs them)
     * @param estimators the task estimators the planner consults for the stages' source leaves
     */
    DistributedRuntime(Coordinator coordinator, List<AutoCloseable> resources, Optional<LocalCluster> localCluster, StageEventDispatcher dispatcher,
            Supplier<List<Long>> memoryLimits, TaskEstimators estimators) {
        this.estimators = requireNonNull(estimators, "estimators is null");
        this.coordinator = requireNonNull(coordinator, "coordinator is null");
        this.resources = List.copyOf(requireNonNull(resources, "resources is null"));
        this.localCluster = requireNonNull(localCluster, "localCluster is null");
        this.dispatcher = requireNonNull(dispatcher, "dispatcher is null");
        this.memoryLimits = requireNonNull(memoryLimits, "memoryLimits is null");
    }

    Coordinator coordinator() {
        return coordinator;
    }

    Optional<LocalCluster> localCluster() {
        return localCluster;
    }

    /** Each worker's memory limit, as the stage events carry them. */
    synchronized List<Long> workerMemoryLimits() {
        if (knownMemoryLimits == null) {
            knownMemoryLimits = List.copyOf(memoryLimits.get());
        }
        return knownMemoryLimits;
    }

    /**
     * How {@code physical} runs on this cluster under {@code settings} — the one place that decides
     * between static planning and AQE: with {@code distributed.dynamic_task_count=true} nothing is
     * sized before execution ({@link PlannedQuery.Adaptive}); otherwise every stage is sized now from
     * estimated statistics ({@link PlannedQuery.Static}). Either way every stage that feeds a shuffle
     * or broadcast fires its stage-built event at the session's handlers.
     */
    PlannedQuery plan(ExecutionPlan physical, Settings settings, String queryId) {
        DistributedPlanner planner = planner(settings);
        StageEvents events = new StageEvents(dispatcher, queryId, this::workerMemoryLimits);
        if (settings.get(DistributedSettings.DYNAMIC_TASK_COUNT)) {
            return new PlannedQuery.Adaptive(physical, new AdaptivePlanning(planner, events));
        }
        return new PlannedQuery.Static(planner.plan(physical, events).plan());
    }

    private DistributedPlanner planner(Settings settings) {
        return new DistributedPlanner(new DistributedPlannerSettings(coordinator.workers().size(), settings), estimators);
    }

    /** A query over {@code planned} ({@link #plan}). */
    DistributedQuery newQuery(String queryId, PlannedQuery planned, TaskContext context, Settings settings) {
        return coordinator.newQuery(queryId, planned, context, taskSettings(settings));
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
