package dev.quiver.distributed.plan;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.execution.ExecutionPlan;

/**
 * Splits a single-node physical plan into stages with static (planning-time) task counts
 * (DESIGN §4). Two passes, each its own class:
 * <ol>
 *   <li>{@link StageCutter}: network boundaries (shuffle, coalesce, broadcast) and the hints of
 *       nodes that constrain their stage;</li>
 *   <li>{@link StageSizer}: per stage, the hints of its leaves (through the {@link TaskEstimators})
 *       and inputs, merged by {@link TaskCountHints#merge}; then the inputs' counts and each
 *       task's plan.</li>
 * </ol>
 * The result lists producers first and ends with the head stage: one task, run on the coordinator,
 * reading the stage below through a coalesce. Stage plans hold unbound
 * {@link dev.quiver.distributed.exchange.StageInputExec}s; producer heads are bound later.
 * Immutable and thread-safe.
 */
public final class DistributedPlanner {
    private final DistributedPlannerSettings settings;
    private final TaskEstimators estimators;

    public DistributedPlanner(DistributedPlannerSettings settings, TaskEstimators estimators) {
        this.settings = requireNonNull(settings, "settings is null");
        this.estimators = requireNonNull(estimators, "estimators is null");
    }

    public DistributedPlanner(DistributedPlannerSettings settings) {
        this(settings, TaskEstimators.builtin());
    }

    public DistributedPlannerSettings settings() {
        return settings;
    }

    /**
     * The distributed plan of {@code plan}. Fails with {@code TASK_COUNT_CONFLICT} when a stage has
     * two different exact task counts or an exact count above {@code max_tasks_per_stage}.
     */
    public DistributedPlan plan(ExecutionPlan plan) {
        requireNonNull(plan, "plan is null");
        return new DistributedPlan(plan, StageSizer.size(StageCutter.cut(plan, settings), settings, estimators));
    }
}
