package dev.quiver.distributed.planner;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.aqe.AdaptiveTaskCount;
import dev.quiver.distributed.aqe.CostModel;
import dev.quiver.distributed.aqe.SampledStatistics;
import dev.quiver.distributed.aqe.StageCost;
import dev.quiver.distributed.event.PlanningMode;
import dev.quiver.distributed.operator.StageInputExec;
import dev.quiver.distributed.plan.DistributedPlannerSettings;
import dev.quiver.distributed.plan.Stage;
import dev.quiver.distributed.plan.StageFragment;
import dev.quiver.distributed.plan.TaskCountHint;
import dev.quiver.distributed.plan.TaskEstimators;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.PlanTree;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * AQE's statistics (DESIGN §5): a stage is sized once every stage it reads is sampled, from its
 * cost over those samples — {@link AdaptiveTaskCount#desired} at
 * {@code distributed.dynamic_bytes_per_partition} — merged with the {@code Exact} hints of source
 * leaves that cannot run as any number of tasks (a source without a TaskEstimator is
 * {@code Exact(1)}, and its origin says why); leaves' advisory hints do not count, AQE sizes from
 * costs. The samples come from the coordinator that ran the producers ({@link Samples}).
 */
public final class SampledStageStatistics implements StageStatistics {
    /** Where the samples of dispatched stages arrive. */
    @FunctionalInterface
    public interface Samples {
        /** Waits until stage {@code stageId}'s sample is complete; empty when the query ended first. */
        Optional<SampledStatistics> await(int stageId);
    }

    private final DistributedPlannerSettings settings;
    private final TaskEstimators estimators;
    private final CostModel costs;
    private final long dynamicBytesPerPartition;
    private final Samples samples;

    public SampledStageStatistics(DistributedPlannerSettings settings, TaskEstimators estimators, CostModel costs, long dynamicBytesPerPartition,
            Samples samples) {
        this.settings = requireNonNull(settings, "settings is null");
        this.estimators = requireNonNull(estimators, "estimators is null");
        this.costs = requireNonNull(costs, "costs is null");
        this.samples = requireNonNull(samples, "samples is null");
        if (dynamicBytesPerPartition < 1) {
            throw new IllegalArgumentException(AdaptiveTaskCount.BUDGET_SETTING + " must be positive: " + dynamicBytesPerPartition);
        }
        this.dynamicBytesPerPartition = dynamicBytesPerPartition;
    }

    @Override
    public PlanningMode mode() {
        return PlanningMode.ADAPTIVE;
    }

    @Override
    public Optional<Map<Integer, SampledStatistics>> inputs(StageFragment fragment) {
        Map<Integer, SampledStatistics> sampled = new LinkedHashMap<>();
        for (int input : fragment.inputStageIds()) {
            Optional<SampledStatistics> statistics = samples.await(input);
            if (statistics.isEmpty()) {
                return Optional.empty();
            }
            sampled.put(input, statistics.get());
        }
        return Optional.of(sampled);
    }

    @Override
    public Advice advise(StageFragment fragment, List<Stage> producers) {
        StageCost cost = costs.cost(fragment.plan());
        int partitions = fragment.plan().outputPartitioning().partitionCount();
        TaskCountHint.Desired costHint = AdaptiveTaskCount.desired(cost.costBytes(), dynamicBytesPerPartition, partitions,
                settings.effectiveMaxTasksPerStage());
        List<TaskCountHint> hints = new ArrayList<>();
        hints.add(costHint);
        List<TaskCountHint> advisory = new ArrayList<>();
        for (ExecutionPlan leaf : PlanTree.leaves(fragment.plan())) {
            if (!(leaf instanceof StageInputExec)) {
                TaskCountHint hint = estimators.taskCount(leaf, settings);
                (hint instanceof TaskCountHint.Exact ? hints : advisory).add(hint);
            }
        }
        return new Advice(hints, Optional.of(new CostAdvice(cost, costHint, advisory)));
    }

    @Override
    public Optional<TaskCountHint> leafHint(ExecutionPlan leaf) {
        TaskCountHint hint = estimators.taskCount(leaf, settings);
        return hint instanceof TaskCountHint.Exact ? Optional.of(hint) : Optional.empty();
    }
}
