package dev.quiver.distributed.planner;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.aqe.CostModel;
import dev.quiver.distributed.aqe.SampledStatistics;
import dev.quiver.distributed.event.DynamicStageBuiltEvent;
import dev.quiver.distributed.event.PlanningMode;
import dev.quiver.distributed.event.StageBoundary;
import dev.quiver.distributed.event.StageSampledEvent;
import dev.quiver.distributed.operator.BoundaryKind;
import dev.quiver.distributed.operator.StageInputExec;
import dev.quiver.distributed.plan.StageFragment;
import dev.quiver.distributed.plan.TaskCountHint;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.stats.Statistics;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Builds the stage events from the planner's fragments, so that the coordinator fires them with
 * the same consumer hints the sizer will merge: the consumer's node hints (e.g. {@code Exact(1)}
 * from a merging node), its source leaves' {@code Exact} hints ({@code Exact(1)} for a leaf that
 * cannot be split) and, in static planning, their {@code Desired} hints too, as each mode sizes.
 */
public final class StageBoundaries {
    private StageBoundaries() {}

    /**
     * The boundary above {@code producer}, or empty when it fires no event (the head stage, or a
     * coalesce, whose consumer is one task).
     *
     * @param fragments every fragment of the query, as {@link DistributedPlanner#cut} returned them
     * @param workerMemoryLimits one limit per worker the query may use
     */
    public static Optional<StageBoundary> of(String queryId, StageFragment producer, List<StageFragment> fragments, DistributedPlanner planner,
            List<Long> workerMemoryLimits, PlanningMode mode) {
        requireNonNull(producer, "producer is null");
        if (producer.isHead() || producer.outputKind().get() == BoundaryKind.COALESCE) {
            return Optional.empty();
        }
        StageFragment consumer = fragments.stream().filter(fragment -> fragment.stageId() == producer.consumerStageId()).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no fragment for stage " + producer.consumerStageId()));
        int partitions = producer.outputKind().get() == BoundaryKind.SHUFFLE ? producer.shufflePartitionsPerConsumerTask()
                : producer.plan().outputPartitioning().partitionCount();
        return Optional.of(new StageBoundary(queryId, producer.stageId(), consumer.stageId(), producer.outputKind().get(), producer.outputKeys(),
                partitions, consumer.plan(), consumerHints(consumer, planner, mode), planner.settings().workerCount(), workerMemoryLimits,
                planner.settings().effectiveMaxTasksPerStage(), planner.settings().maxTasksOrigin(), planner.settings().settings(), mode));
    }

    /** The consumer's own hints an exact count must agree with. */
    public static List<TaskCountHint> consumerHints(StageFragment consumer, DistributedPlanner planner, PlanningMode mode) {
        List<TaskCountHint> hints = new ArrayList<>(consumer.nodeHints());
        DistributedPlanner.SizingMode sizing = mode == PlanningMode.STATIC ? DistributedPlanner.SizingMode.STATIC : DistributedPlanner.SizingMode.ADAPTIVE;
        for (ExecutionPlan leaf : leaves(consumer.plan())) {
            if (!(leaf instanceof StageInputExec)) {
                planner.leafHint(leaf, sizing).ifPresent(hints::add);
            }
        }
        return hints;
    }

    /** The stage-built event of a sized producer whose whole (unsplit) plan is {@code producerPlan}. */
    public static DynamicStageBuiltEvent builtEvent(StageBoundary boundary, ExecutionPlan producerPlan, int producerTasks, CostModel costs) {
        Map<Integer, Statistics> inputs = new LinkedHashMap<>();
        for (StageInputExec input : ProducerRewriteCheck.inputs(producerPlan)) {
            inputs.put(input.producerStageId(), input.statistics());
        }
        return new DynamicStageBuiltEvent(boundary, producerPlan, producerTasks, costs.cost(producerPlan), inputs);
    }

    public static StageSampledEvent sampledEvent(StageBoundary boundary, ExecutionPlan producerPlan, int producerTasks, SampledStatistics sampled) {
        return new StageSampledEvent(boundary, producerPlan, producerTasks, sampled);
    }

    private static List<ExecutionPlan> leaves(ExecutionPlan plan) {
        List<ExecutionPlan> leaves = new ArrayList<>();
        collect(plan, leaves);
        return leaves;
    }

    private static void collect(ExecutionPlan plan, List<ExecutionPlan> leaves) {
        if (plan.children().isEmpty()) {
            leaves.add(plan);
        }
        plan.children().forEach(child -> collect(child, leaves));
    }
}
