package dev.quiver.distributed.planner;

import dev.quiver.distributed.operator.BoundaryKind;
import dev.quiver.distributed.operator.StageInputExec;
import dev.quiver.distributed.plan.DistributedPlannerSettings;
import dev.quiver.distributed.plan.Stage;
import dev.quiver.distributed.plan.StageFragment;
import dev.quiver.distributed.plan.StageOutput;
import dev.quiver.distributed.plan.TaskCountHint;
import dev.quiver.distributed.plan.TaskCountHints;
import dev.quiver.distributed.plan.TaskEstimators;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.ExecutionPlan;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The second planner pass: sizes one {@link StageFragment} once the stages it reads are sized.
 * Its hints are its nodes' hints, its source leaves' hints ({@link #leafHint}: from the
 * {@link TaskEstimators}, a leaf without an estimator being {@code Exact(1)}; only the exact ones
 * when sizing adaptively), the caller's extra hints and, when sizing statically,
 * {@code Desired(T_p)} for each shuffle input, so that a stage fed only by stage inputs wants as
 * many tasks as its largest input. They merge by {@link TaskCountHints#merge}.
 * The sizer then fixes the counts of the stage's inputs and builds each task's plan from its
 * leaves' per-task variants.
 */
final class StageSizer {
    private StageSizer() {}

    static Stage size(StageFragment fragment, Collection<Stage> producers, List<TaskCountHint> extraHints, DistributedPlanner.SizingMode mode,
            DistributedPlannerSettings settings, TaskEstimators estimators) {
        List<TaskCountHint> hints = new ArrayList<>(fragment.nodeHints());
        List<ExecutionPlan> leaves = new ArrayList<>();
        collectLeaves(fragment.plan(), leaves);
        for (ExecutionPlan leaf : leaves) {
            if (!(leaf instanceof StageInputExec input)) {
                leafHint(leaf, mode, settings, estimators).ifPresent(hints::add);
            } else if (mode == DistributedPlanner.SizingMode.STATIC) {
                Stage producer = producer(producers, fragment, input);
                if (input.kind() == BoundaryKind.SHUFFLE) {
                    hints.add(TaskCountHint.desired(producer.taskCount(), "shuffle input from stage " + producer.stageId() + " (" + producer.taskCount() + " tasks)"));
                }
            }
        }
        hints.addAll(extraHints);
        TaskCountHint hint = TaskCountHints.merge("stage " + fragment.stageId(), hints, settings.effectiveMaxTasksPerStage(), settings.maxTasksOrigin());
        int taskCount = hint.taskCount();
        Map<ExecutionPlan, List<ExecutionPlan>> variants = new IdentityHashMap<>();
        for (ExecutionPlan leaf : leaves) {
            variants.put(leaf, leaf instanceof StageInputExec input
                    ? Collections.nCopies(taskCount, sized(input, producer(producers, fragment, input), taskCount))
                    : estimators.scaleUpLeafNode(leaf, taskCount, leaf.outputPartitioning().partitionCount()));
        }
        List<ExecutionPlan> taskPlans = new ArrayList<>(taskCount);
        for (int task = 0; task < taskCount; task++) {
            taskPlans.add(replaceLeaves(fragment.plan(), variants, task));
        }
        int partitions = taskPlans.get(0).outputPartitioning().partitionCount();
        Optional<StageOutput> output = fragment.outputKind().map(kind -> new StageOutput(kind, fragment.consumerStageId(), fragment.outputKeys(),
                kind == BoundaryKind.SHUFFLE ? fragment.shufflePartitionsPerConsumerTask() : Math.multiplyExact(taskCount, partitions)));
        return new Stage(fragment.stageId(), taskPlans, partitions, hint, output, fragment.inputStageIds());
    }

    /**
     * A source leaf's hint for its stage: its {@link TaskEstimators} hint ({@code Exact(1)} without an
     * estimator) when sizing statically; only when it is an {@code Exact} when sizing adaptively (AQE
     * sizes from costs, but a leaf that cannot run as any number of tasks binds it too).
     */
    static Optional<TaskCountHint> leafHint(ExecutionPlan leaf, DistributedPlanner.SizingMode mode, DistributedPlannerSettings settings,
            TaskEstimators estimators) {
        TaskCountHint hint = estimators.taskCount(leaf, settings);
        return mode == DistributedPlanner.SizingMode.STATIC || hint instanceof TaskCountHint.Exact ? Optional.of(hint) : Optional.empty();
    }

    private static Stage producer(Collection<Stage> producers, StageFragment fragment, StageInputExec input) {
        return producers.stream().filter(stage -> stage.stageId() == input.producerStageId()).findFirst()
                .orElseThrow(() -> new QuiverException(ErrorCode.PLAN_ERROR, "stage " + fragment.stageId() + " is sized before stage "
                        + input.producerStageId() + ", which it reads"));
    }

    /**
     * The advisory ({@code Desired}) hints the source leaves of {@code fragment} give through their
     * estimators: a static plan merges them; AQE sizes from costs instead and shows them beside its
     * decision.
     */
    static List<TaskCountHint> advisoryLeafHints(StageFragment fragment, DistributedPlannerSettings settings, TaskEstimators estimators) {
        List<ExecutionPlan> leaves = new ArrayList<>();
        collectLeaves(fragment.plan(), leaves);
        return leaves.stream().filter(leaf -> !(leaf instanceof StageInputExec))
                .map(leaf -> leafHint(leaf, DistributedPlanner.SizingMode.STATIC, settings, estimators).orElseThrow())
                .filter(hint -> hint instanceof TaskCountHint.Desired).toList();
    }

    /** The input with the producer's task count and this stage's. */
    private static StageInputExec sized(StageInputExec input, Stage producer, int consumerTasks) {
        int producerTasks = producer.taskCount();
        int producerPartitions = producer.partitionsPerTask();
        return switch (input.kind()) {
            case SHUFFLE -> input.withCounts(producerTasks, producerPartitions, consumerTasks, input.partitionsPerConsumerTask());
            case COALESCE -> input.withCounts(producerTasks, producerPartitions, 1, producerTasks * producerPartitions);
            case BROADCAST -> input.withCounts(producerTasks, producerPartitions, consumerTasks, producerTasks * producerPartitions);
        };
    }

    private static void collectLeaves(ExecutionPlan plan, List<ExecutionPlan> leaves) {
        if (plan.children().isEmpty()) {
            leaves.add(plan);
        }
        for (ExecutionPlan child : plan.children()) {
            collectLeaves(child, leaves);
        }
    }

    private static ExecutionPlan replaceLeaves(ExecutionPlan plan, Map<ExecutionPlan, List<ExecutionPlan>> variants, int task) {
        if (plan.children().isEmpty()) {
            return variants.get(plan).get(task);
        }
        List<ExecutionPlan> children = new ArrayList<>();
        for (ExecutionPlan child : plan.children()) {
            children.add(replaceLeaves(child, variants, task));
        }
        return plan.withNewChildren(children);
    }
}
