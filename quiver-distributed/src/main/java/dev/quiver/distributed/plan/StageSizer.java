package dev.quiver.distributed.plan;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.exchange.StageInputExec;
import dev.quiver.engine.execution.ExecutionPlan;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The second planner pass: sizes the stages the {@link StageCutter} made, producers first. A
 * stage's hints are its nodes' hints, its source leaves' hints from the {@link TaskEstimators}
 * (a leaf without an estimator is {@code Exact(1)}), and {@code Desired(T_p)} for each shuffle
 * input, so that a stage fed only by stage inputs wants as many tasks as its largest input.
 * They merge by {@link TaskCountHints#merge}. The sizer then fixes the counts of the stage's
 * inputs and builds each task's plan from its leaves' per-task variants.
 */
final class StageSizer {
    private final DistributedPlannerSettings settings;
    private final TaskEstimators estimators;
    private final List<Stage> stages = new ArrayList<>();

    private StageSizer(DistributedPlannerSettings settings, TaskEstimators estimators) {
        this.settings = requireNonNull(settings, "settings is null");
        this.estimators = requireNonNull(estimators, "estimators is null");
    }

    static List<Stage> size(List<StageDraft> drafts, DistributedPlannerSettings settings, TaskEstimators estimators) {
        StageSizer sizer = new StageSizer(settings, estimators);
        for (StageDraft draft : drafts) {
            sizer.stages.add(sizer.size(draft));
        }
        return List.copyOf(sizer.stages);
    }

    private Stage size(StageDraft draft) {
        List<TaskCountHint> hints = new ArrayList<>(draft.nodeHints);
        List<ExecutionPlan> leaves = new ArrayList<>();
        collectLeaves(draft.plan, leaves);
        for (ExecutionPlan leaf : leaves) {
            if (leaf instanceof StageInputExec input) {
                Stage producer = stages.get(input.producerStageId());
                if (input.kind() == BoundaryKind.SHUFFLE) {
                    hints.add(TaskCountHint.desired(producer.taskCount(), "shuffle input from stage " + producer.stageId() + " (" + producer.taskCount() + " tasks)"));
                }
            } else {
                hints.add(estimators.taskCount(leaf, settings));
            }
        }
        TaskCountHint hint = TaskCountHints.merge("stage " + draft.id, hints, settings.effectiveMaxTasksPerStage(), settings.maxTasksOrigin());
        int taskCount = hint.taskCount();
        Map<ExecutionPlan, List<ExecutionPlan>> variants = new IdentityHashMap<>();
        for (ExecutionPlan leaf : leaves) {
            variants.put(leaf, leaf instanceof StageInputExec input
                    ? Collections.nCopies(taskCount, sized(input, taskCount))
                    : estimators.scaleUpLeafNode(leaf, taskCount, leaf.outputPartitioning().partitionCount()));
        }
        List<ExecutionPlan> taskPlans = new ArrayList<>(taskCount);
        for (int task = 0; task < taskCount; task++) {
            taskPlans.add(replaceLeaves(draft.plan, variants, task));
        }
        Optional<StageOutput> output = draft.isHead()
                ? Optional.empty()
                : Optional.of(new StageOutput(draft.outputKind, draft.consumerId, draft.outputKeys, outputPartitionsPerConsumerTask(draft, taskPlans.get(0), taskCount)));
        int partitions = taskPlans.get(0).outputPartitioning().partitionCount();
        return new Stage(draft.id, taskPlans, partitions, hint, output, draft.inputs);
    }

    /** {@code P_c}: the shuffle's, or all {@code T_p × P_p} partitions for a coalesce or broadcast. */
    private static int outputPartitionsPerConsumerTask(StageDraft draft, ExecutionPlan plan, int taskCount) {
        return draft.outputKind == BoundaryKind.SHUFFLE
                ? draft.outputPartitionsPerConsumerTask
                : Math.multiplyExact(taskCount, plan.outputPartitioning().partitionCount());
    }

    /** The input with the producer's task count and this stage's. */
    private StageInputExec sized(StageInputExec input, int consumerTasks) {
        Stage producer = stages.get(input.producerStageId());
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
