package dev.quiver.distributed.planner;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.plan.DistributedPlan;
import dev.quiver.distributed.plan.DistributedPlannerSettings;
import dev.quiver.distributed.plan.Stage;
import dev.quiver.distributed.plan.StageFragment;
import dev.quiver.distributed.plan.StageHintSource;
import dev.quiver.distributed.plan.TaskCountHint;
import dev.quiver.distributed.plan.TaskCountHints;
import dev.quiver.distributed.plan.TaskEstimator;
import dev.quiver.distributed.plan.TaskEstimators;
import dev.quiver.engine.execution.ExecutionPlan;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * Splits a single-node physical plan into stages (DESIGN §4). Two passes, each its own class:
 * <ol>
 *   <li>{@link StageCutter} ({@link #cut}): network boundaries (shuffle, coalesce, broadcast) and the
 *       hints of nodes that constrain their stage;</li>
 *   <li>{@link StageSizer} ({@link #size}): per stage, once the stages it reads are sized, its hints
 *       merged by {@link TaskCountHints#merge}; then the inputs' counts and each task's plan.</li>
 * </ol>
 * {@link #plan} runs both with static (planning-time) task counts. Adaptive execution (DESIGN §5)
 * cuts once and sizes each stage when it closes, with its own cost-based hints
 * ({@link SizingMode#ADAPTIVE}). The result lists producers first and ends with the head stage: one
 * task, run on the coordinator, reading the stage below through a coalesce. Stage plans hold
 * unbound {@link dev.quiver.distributed.operator.StageInputExec}s; producer heads are bound later.
 * Immutable and thread-safe.
 */
public final class DistributedPlanner {
    /** Which hints a stage gets besides its nodes' and the caller's. */
    public enum SizingMode {
        /** Planning time: each source leaf's {@link TaskEstimator} hint and {@code Desired(T_p)} for each shuffle input. */
        STATIC,
        /** AQE: only the {@code Exact} hints of source leaves that cannot split; the caller brings the hints it computed from costs and samples. */
        ADAPTIVE
    }

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
     * The distributed plan of {@code plan} with static task counts. Fails with
     * {@code TASK_COUNT_CONFLICT} when a stage has two different exact task counts or an exact count
     * above {@code max_tasks_per_stage}.
     */
    public DistributedPlan plan(ExecutionPlan plan) {
        return plan(plan, StageHintSource.none());
    }

    /** Like {@link #plan(ExecutionPlan)}, merging each stage's hints with those {@code extraHints} gives for it. */
    public DistributedPlan plan(ExecutionPlan plan, StageHintSource extraHints) {
        requireNonNull(plan, "plan is null");
        requireNonNull(extraHints, "extraHints is null");
        List<Stage> stages = new ArrayList<>();
        for (StageFragment fragment : cut(plan)) {
            List<TaskCountHint> hints = extraHints.hints(fragment.stageId(), fragment.plan(), List.copyOf(stages));
            stages.add(size(fragment, stages, hints, SizingMode.STATIC));
        }
        return new DistributedPlan(plan, stages);
    }

    /** The hint source leaf {@code leaf} gives its stage when sized in {@code mode}, if any (see {@link SizingMode}). */
    public Optional<TaskCountHint> leafHint(ExecutionPlan leaf, SizingMode mode) {
        return StageSizer.leafHint(requireNonNull(leaf, "leaf is null"), requireNonNull(mode, "mode is null"), settings, estimators);
    }

    /** The {@code Desired} hints {@code fragment}'s source leaves give (what AQE, which sizes from costs, shows beside its decision). */
    public List<TaskCountHint> advisoryLeafHints(StageFragment fragment) {
        return StageSizer.advisoryLeafHints(requireNonNull(fragment, "fragment is null"), settings, estimators);
    }

    /** The stages of {@code plan}, producers first, the head stage last, not sized yet. */
    public List<StageFragment> cut(ExecutionPlan plan) {
        return StageCutter.cut(requireNonNull(plan, "plan is null"), settings);
    }

    /**
     * {@code fragment} as a stage: its node hints, its leaves' hints as {@code mode} takes them,
     * {@code extraHints} and, in {@link SizingMode#STATIC}, its shuffle inputs' hints, merged; every
     * stage it reads must be among {@code producers}.
     */
    public Stage size(StageFragment fragment, Collection<Stage> producers, List<TaskCountHint> extraHints, SizingMode mode) {
        return StageSizer.size(requireNonNull(fragment, "fragment is null"), requireNonNull(producers, "producers is null"),
                List.copyOf(requireNonNull(extraHints, "extraHints is null")), requireNonNull(mode, "mode is null"), settings, estimators);
    }
}
