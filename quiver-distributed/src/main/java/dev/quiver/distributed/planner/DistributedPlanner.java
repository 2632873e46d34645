package dev.quiver.distributed.planner;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.plan.DistributedPlan;
import dev.quiver.distributed.plan.DistributedPlannerSettings;
import dev.quiver.distributed.plan.Stage;
import dev.quiver.distributed.plan.StageFragment;
import dev.quiver.distributed.plan.TaskCountHint;
import dev.quiver.distributed.plan.TaskEstimators;
import dev.quiver.engine.execution.ExecutionPlan;
import java.util.Collection;
import java.util.List;

/**
 * Splits a single-node physical plan into stages (DESIGN §4). The passes, in this order, each its
 * own class and each leaving a plan that runs as it is:
 * <ol>
 *   <li>preparatory: {@link PartitionedJoins} when {@code distributed.broadcast_joins=false} (collect-left
 *       hash joins planned partitioned), a single-node plan still;</li>
 *   <li>{@link StageCutter} ({@link #cut}): network boundaries (shuffle, coalesce, broadcast) and the
 *       hints of nodes that constrain their stage; every fragment a plan that reads its inputs
 *       through unsized stage inputs;</li>
 *   <li>per stage, producers first, the {@link StagePlanningLoop}: close it (its inputs' statistics and
 *       the {@code P_c} decided at them), size it ({@link StageSizer}, {@link #size}), fire its
 *       stage-built event ({@link StageEventDispatcher}) and size a rewrite again, and check what
 *       the handlers require of its consumer ({@link ConsumerRequirements}).</li>
 * </ol>
 * {@link #plan} runs them with the sources' estimated statistics ({@link EstimatedStatistics});
 * adaptive execution (DESIGN §5) runs the same loop with sampled ones, dispatching each stage as its
 * decision becomes final. The result lists producers first and ends with the head stage: one task,
 * run on the coordinator, reading the stage below through a coalesce. Stage plans hold unbound
 * {@link dev.quiver.distributed.operator.StageInputExec}s; producer heads are bound later. Immutable
 * and thread-safe.
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

    public TaskEstimators estimators() {
        return estimators;
    }

    /**
     * The distributed plan of {@code plan} with static task counts. Fails with
     * {@code TASK_COUNT_CONFLICT} when a stage has two different exact task counts or an exact count
     * above {@code max_tasks_per_stage}.
     */
    public DistributedPlan plan(ExecutionPlan plan) {
        return plan(plan, StageEvents.none()).plan();
    }

    /** Like {@link #plan(ExecutionPlan)}, firing the stage-built event of every stage that feeds a shuffle or broadcast at {@code events}' handlers. */
    public StagePlanningLoop.Result plan(ExecutionPlan plan, StageEvents events) {
        return new StagePlanningLoop(this, estimatedStatistics(), events, StagePlanningLoop.Listener.none()).run(requireNonNull(plan, "plan is null"))
                .orElseThrow();
    }

    /** Static planning's statistics: the sources' estimates. */
    public EstimatedStatistics estimatedStatistics() {
        return new EstimatedStatistics(settings, estimators);
    }

    /** {@code plan} after the preparatory passes: a single-node plan the cutter cuts without rewriting anything. */
    public ExecutionPlan prepare(ExecutionPlan plan) {
        requireNonNull(plan, "plan is null");
        return settings.broadcastJoins() ? plan : PartitionedJoins.apply(plan, settings.targetPartitions());
    }

    /** The stages of {@code plan} (prepared first), producers first, the head stage last, not sized yet. */
    public List<StageFragment> cut(ExecutionPlan plan) {
        return StageCutter.cut(prepare(plan), settings);
    }

    /**
     * {@code fragment} as a stage: its node hints and {@code hints} (the statistics' and the
     * handlers'), merged; every stage it reads must be among {@code producers}.
     */
    public Stage size(StageFragment fragment, Collection<Stage> producers, List<TaskCountHint> hints) {
        return StageSizer.size(requireNonNull(fragment, "fragment is null"), requireNonNull(producers, "producers is null"),
                List.copyOf(requireNonNull(hints, "hints is null")), settings, estimators);
    }
}
