package dev.quiver.distributed.planner;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.aqe.CostModel;
import dev.quiver.distributed.event.DynamicStageBuiltEvent;
import dev.quiver.distributed.event.PlanningMode;
import dev.quiver.distributed.event.StageBoundary;
import dev.quiver.distributed.plan.DistributedPlan;
import dev.quiver.distributed.plan.Stage;
import dev.quiver.distributed.plan.StageConsistency;
import dev.quiver.distributed.plan.StageFragment;
import dev.quiver.distributed.plan.TaskCountHint;
import dev.quiver.engine.execution.ExecutionPlan;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Static planning with stage-built events (DESIGN §6, static mode): what
 * {@link DistributedPlanner#plan(ExecutionPlan)} does, plus, after each stage that feeds a shuffle
 * or broadcast is sized, the {@code DynamicStageBuiltEvent} with estimated statistics. A rewritten
 * producer is sized again; the handlers' consumer counts join the consumer's hints (an exact one
 * overrides every Desired, two different ones, from two handlers or two inputs of a join, fail
 * naming both); a {@code P_c} override goes through {@link ShuffleLayout} into both the producer's
 * output and, when the consumer is sized, its inputs (checked against the consumer's other shuffle
 * inputs as each is decided), so the head the coordinator derives from the consumer's input is
 * {@code Hash(keys, P_c × n)} and the consumer's {@code P} is {@code P_c}. The result passes {@link StageConsistency}. The coordinator's
 * adaptive loop does the same steps one stage at a time (see docs/exact-consumer-tasks.md).
 */
public final class EventDrivenPlanning {
    /**
     * @param plan the distributed plan, every exact consumer count applied
     * @param requirements what the handlers required at each boundary, by producer stage id
     */
    public record Result(DistributedPlan plan, Map<Integer, BoundaryRequirements> requirements) {
        public Result {
            requireNonNull(plan, "plan is null");
            requirements = Map.copyOf(requireNonNull(requirements, "requirements is null"));
        }
    }

    private EventDrivenPlanning() {}

    public static Result plan(DistributedPlanner planner, ExecutionPlan plan, StageEventDispatcher dispatcher, String queryId, List<Long> workerMemoryLimits) {
        requireNonNull(planner, "planner is null");
        requireNonNull(dispatcher, "dispatcher is null");
        List<StageFragment> fragments = new ArrayList<>(planner.cut(requireNonNull(plan, "plan is null")));
        CostModel costs = new CostModel();
        List<Stage> stages = new ArrayList<>();
        Map<Integer, BoundaryRequirements> requirements = new LinkedHashMap<>();
        Map<Integer, Integer> partitions = new LinkedHashMap<>();
        for (int index = 0; index < fragments.size(); index++) {
            // a consumer's shuffle inputs take their P_c overrides together (a partitioned join's inputs must match at every step)
            StageFragment fragment = ShuffleLayout.withInputPartitions(fragments.get(index), partitions);
            fragments.set(index, fragment);
            List<TaskCountHint> hints = BoundaryRequirements.hintsFor(fragment.inputStageIds(), requirements);
            Stage stage = planner.size(fragment, stages, hints, DistributedPlanner.SizingMode.STATIC);
            Optional<StageBoundary> boundary = dispatcher.isEmpty() ? Optional.empty()
                    : StageBoundaries.of(queryId, fragment, fragments, planner, workerMemoryLimits, PlanningMode.STATIC);
            if (boundary.isPresent()) {
                DynamicStageBuiltEvent event = StageBoundaries.builtEvent(boundary.get(), fragment.plan(), stage.taskCount(), costs);
                StageBuiltOutcome outcome = dispatcher.onStageBuilt(event);
                if (outcome.rewritten()) {
                    fragment = outcome.applyTo(fragment);
                    fragments.set(index, fragment);
                    stage = planner.size(fragment, stages, hints, DistributedPlanner.SizingMode.STATIC);
                }
                BoundaryRequirements required = outcome.requirements();
                requirements.put(fragment.stageId(), required);
                int consumer = position(fragments, fragment.consumerStageId());
                ShuffleLayout.checkShuffleInputs(fragments.get(consumer), requirements);
                if (required.partitionsPerConsumerTask().isPresent()) {
                    ShuffleLayout layout = ShuffleLayout.of(stage, required.exact().orElseThrow().taskCount(), required);
                    stage = layout.producerStage(stage);
                    partitions.put(fragment.stageId(), layout.partitionsPerConsumerTask());
                }
            }
            stages.add(stage);
        }
        DistributedPlan result = new DistributedPlan(plan, stages);
        StageConsistency.check(result);
        return new Result(result, requirements);
    }

    private static int position(List<StageFragment> fragments, int stageId) {
        for (int i = 0; i < fragments.size(); i++) {
            if (fragments.get(i).stageId() == stageId) {
                return i;
            }
        }
        throw new IllegalArgumentException("no stage " + stageId);
    }
}
