package dev.quiver.session;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.config.DistributedSettings;
import dev.quiver.distributed.coordinator.Coordinator;
import dev.quiver.distributed.coordinator.DistributedQuery;
import dev.quiver.distributed.plan.DistributedPlan;
import dev.quiver.distributed.plan.DistributedPlannerSettings;
import dev.quiver.distributed.plan.Stage;
import dev.quiver.distributed.plan.TaskCountHint;
import dev.quiver.distributed.plan.TaskEstimators;
import dev.quiver.distributed.planner.AdaptiveEventPlanning;
import dev.quiver.distributed.planner.AdaptivePlanning;
import dev.quiver.distributed.planner.DistributedPlanner;
import dev.quiver.distributed.planner.EventDrivenPlanning;
import dev.quiver.distributed.planner.StageEventDispatcher;
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
     * The stages of {@code physical} for this cluster under {@code settings}. With
     * {@code distributed.dynamic_task_count=true} nothing is sized before execution: the result is the
     * single-node plan as one head stage, a placeholder that {@link #newQuery} replaces at run time.
     * Statically, with stage-event handlers, it is planned through {@link EventDrivenPlanning} so that
     * every stage feeding a shuffle or broadcast fires its stage-built event and the handlers'
     * consumer counts apply.
     */
    DistributedPlan plan(ExecutionPlan physical, Settings settings, String queryId) {
        if (settings.get(DistributedSettings.DYNAMIC_TASK_COUNT)) {
            return new DistributedPlan(physical, List.of(new Stage(0, List.of(physical), physical.outputPartitioning().partitionCount(),
                    TaskCountHint.exact(1, "AQE decides at run time"), Optional.empty(), List.of())));
        }
        if (dispatcher.isEmpty()) {
            return planner(settings).plan(physical);
        }
        return EventDrivenPlanning.plan(planner(settings), physical, dispatcher, queryId, workerMemoryLimits()).plan();
    }

    private DistributedPlanner planner(Settings settings) {
        return new DistributedPlanner(new DistributedPlannerSettings(coordinator.workers().size(), settings), estimators);
    }

    /** A query over {@code plan} ({@link #plan}): statically sized, or adaptive (DESIGN §5) under {@code distributed.dynamic_task_count}. */
    DistributedQuery newQuery(String queryId, DistributedPlan plan, TaskContext context, Settings settings) {
        if (!settings.get(DistributedSettings.DYNAMIC_TASK_COUNT)) {
            return coordinator.newQuery(queryId, plan, context, taskSettings(settings));
        }
        AdaptivePlanning planning = AdaptivePlanning.of(planner(settings));
        if (!dispatcher.isEmpty()) {
            AdaptiveEventPlanning events = new AdaptiveEventPlanning(planning.planner(), dispatcher, queryId, workerMemoryLimits(), planning.costModel());
            planning = planning.withStageEvents(events, events);
        }
        return coordinator.newAdaptiveQuery(queryId, plan.singleNodePlan(), planning, context, taskSettings(settings));
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
