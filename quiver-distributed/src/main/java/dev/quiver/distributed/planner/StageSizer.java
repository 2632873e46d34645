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
import dev.quiver.engine.execution.PlanTree;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The planner pass that sizes one {@link StageFragment} once the stages it reads are sized: its
 * nodes' hints and the caller's (from the statistics and the handlers,
 * {@link StagePlanningLoop}) merge by {@link TaskCountHints#merge} under the task limit; then the
 * counts of the stage's inputs are fixed and each task's plan is built from its leaves' per-task
 * variants.
 *
 * <p>The task limit is {@code max_tasks_per_stage}, and, for a stage reading shuffles, what keeps
 * every producer's {@code P_c × T_c} hash partitions within {@code distributed.max_partitions_per_task}:
 * a Desired is clamped to it, an Exact above it fails naming both origins.
 */
final class StageSizer {
    private StageSizer() {}

    static Stage size(StageFragment fragment, Collection<Stage> producers, List<TaskCountHint> extraHints, DistributedPlannerSettings settings,
            TaskEstimators estimators) {
        List<TaskCountHint> hints = new ArrayList<>(fragment.nodeHints());
        hints.addAll(extraHints);
        Limit limit = limit(fragment, settings);
        TaskCountHint hint = TaskCountHints.merge("stage " + fragment.stageId(), hints, limit.tasks(), limit.origin());
        int taskCount = hint.taskCount();
        Map<ExecutionPlan, List<ExecutionPlan>> variants = new IdentityHashMap<>();
        for (ExecutionPlan leaf : PlanTree.leaves(fragment.plan())) {
            variants.put(leaf, leaf instanceof StageInputExec input
                    ? Collections.nCopies(taskCount, sized(input, producer(producers, fragment, input), taskCount))
                    : estimators.scaleUpLeafNode(leaf, taskCount, leaf.outputPartitioning().partitionCount()));
        }
        List<ExecutionPlan> taskPlans = new ArrayList<>(taskCount);
        for (int task = 0; task < taskCount; task++) {
            int t = task;
            taskPlans.add(PlanTree.rewrite(fragment.plan(), node -> node.children().isEmpty() ? variants.get(node).get(t) : node));
        }
        int partitions = taskPlans.get(0).outputPartitioning().partitionCount();
        Optional<StageOutput> output = fragment.outputKind().map(kind -> new StageOutput(kind, fragment.consumerStageId(), fragment.outputKeys(),
                kind == BoundaryKind.SHUFFLE ? fragment.shufflePartitionsPerConsumerTask() : Math.multiplyExact(taskCount, partitions)));
        return new Stage(fragment.stageId(), taskPlans, partitions, hint, output, fragment.inputStageIds());
    }

    /** The task limit of {@code fragment} and how errors name it. */
    record Limit(int tasks, String origin) {}

    static Limit limit(StageFragment fragment, DistributedPlannerSettings settings) {
        int tasks = settings.effectiveMaxTasksPerStage();
        String origin = settings.maxTasksOrigin();
        for (StageInputExec input : PlanTree.nodesOf(fragment.plan(), StageInputExec.class)) {
            if (input.kind() != BoundaryKind.SHUFFLE) {
                continue;
            }
            int pc = input.partitionsPerConsumerTask();
            int byPartitions = settings.maxPartitionsPerTask() / pc;
            if (byPartitions < 1) {
                throw new QuiverException(ErrorCode.TASK_COUNT_CONFLICT, "stage " + fragment.stageId() + " reads stage " + input.producerStageId()
                        + " with P_c=" + pc + " partitions per task, more than the limit of " + settings.maxPartitionsPerTask()
                        + " hash partitions a producer task writes (" + settings.maxPartitionsOrigin() + ")");
            }
            if (byPartitions < tasks) {
                tasks = byPartitions;
                origin = settings.maxPartitionsOrigin() + " over P_c=" + pc + " (the input from stage " + input.producerStageId() + ")";
            }
        }
        return new Limit(tasks, origin);
    }

    static Stage producer(Collection<Stage> producers, StageFragment fragment, StageInputExec input) {
        return producers.stream().filter(stage -> stage.stageId() == input.producerStageId()).findFirst()
                .orElseThrow(() -> new QuiverException(ErrorCode.PLAN_ERROR, "stage " + fragment.stageId() + " is sized before stage "
                        + input.producerStageId() + ", which it reads"));
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
}
