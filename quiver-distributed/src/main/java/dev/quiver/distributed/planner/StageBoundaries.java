package dev.quiver.distributed.planner;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.aqe.CostModel;
import dev.quiver.distributed.event.DynamicStageBuiltEvent;
import dev.quiver.distributed.event.StageBoundary;
import dev.quiver.distributed.operator.BoundaryKind;
import dev.quiver.distributed.operator.StageInputExec;
import dev.quiver.distributed.plan.DistributedPlannerSettings;
import dev.quiver.distributed.plan.StageFragment;
import dev.quiver.distributed.plan.TaskCountHint;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.PlanTree;
import dev.quiver.engine.stats.Statistics;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Builds the stage events from the planner's fragments, so that the coordinator fires them with
 * the same consumer hints the sizer will merge: the consumer's node hints (e.g. {@code Exact(1)}
 * from a merging node) and its source leaves' hints as the statistics give them (an unsplittable
 * leaf's {@code Exact(1)} in both modes).
 */
public final class StageBoundaries {
    private StageBoundaries() {}

    /**
     * The boundary above {@code producer}, or empty when it fires no event (the head stage, or a
     * coalesce, whose consumer is one task).
     *
     * @param fragments every fragment of the query, as {@link DistributedPlanner#cut} returned them
     */
    public static Optional<StageBoundary> of(StageEvents events, StageFragment producer, List<StageFragment> fragments, DistributedPlannerSettings settings,
            StageStatistics statistics) {
        requireNonNull(producer, "producer is null");
        if (producer.isHead() || producer.outputKind().get() == BoundaryKind.COALESCE) {
            return Optional.empty();
        }
        StageFragment consumer = fragment(fragments, producer.consumerStageId());
        int partitions = producer.outputKind().get() == BoundaryKind.SHUFFLE ? producer.shufflePartitionsPerConsumerTask()
                : producer.plan().outputPartitioning().partitionCount();
        List<Long> limits = events.workerMemoryLimits().get();
        return Optional.of(new StageBoundary(events.queryId(), producer.stageId(), consumer.stageId(), producer.outputKind().get(), producer.outputKeys(),
                partitions, consumer.plan(), consumerHints(consumer, statistics), settings.workerCount(), limits,
                settings.effectiveMaxTasksPerStage(), settings.maxTasksOrigin(), settings.settings(), statistics.mode()));
    }

    /** The consumer's own hints an exact count must agree with. */
    public static List<TaskCountHint> consumerHints(StageFragment consumer, StageStatistics statistics) {
        List<TaskCountHint> hints = new ArrayList<>(consumer.nodeHints());
        for (ExecutionPlan leaf : PlanTree.leaves(consumer.plan())) {
            if (!(leaf instanceof StageInputExec)) {
                statistics.leafHint(leaf).ifPresent(hints::add);
            }
        }
        return hints;
    }

    /** The stage-built event of a sized producer whose whole (unsplit) plan is {@code producerPlan}. */
    public static DynamicStageBuiltEvent builtEvent(StageBoundary boundary, ExecutionPlan producerPlan, int producerTasks, CostModel costs) {
        Map<Integer, Statistics> inputs = new LinkedHashMap<>();
        for (StageInputExec input : PlanTree.nodesOf(producerPlan, StageInputExec.class)) {
            inputs.put(input.producerStageId(), input.statistics());
        }
        return new DynamicStageBuiltEvent(boundary, producerPlan, producerTasks, costs.cost(producerPlan), inputs);
    }

    /** The fragment of stage {@code stageId}. */
    static StageFragment fragment(List<StageFragment> fragments, int stageId) {
        return fragments.stream().filter(fragment -> fragment.stageId() == stageId).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no fragment for stage " + stageId));
    }
}
