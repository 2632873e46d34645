package dev.quiver.distributed.exact;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.aqe.CostModel;
import dev.quiver.distributed.aqe.SampledStatistics;
import dev.quiver.distributed.coordinator.AdaptiveStageEvents;
import dev.quiver.distributed.event.PlanningMode;
import dev.quiver.distributed.event.StageBoundary;
import dev.quiver.distributed.exchange.StageInputExec;
import dev.quiver.distributed.plan.DistributedPlanner;
import dev.quiver.distributed.plan.Stage;
import dev.quiver.distributed.plan.StageFragment;
import dev.quiver.distributed.plan.StageHintSource;
import dev.quiver.distributed.plan.TaskCountHint;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.ExecutionPlan;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The stage events of one adaptive query (DESIGN §6 in the loop of DESIGN §5): after a producer is
 * sized, its {@code DynamicStageBuiltEvent} (a rewrite is sized again by the loop; an exact count
 * above the limit or in conflict fails before the producer is dispatched); after it is sampled, its
 * {@code StageSampledEvent}; and, as the loop's {@link StageHintSource}, each consumer's hints from
 * what the handlers required at its input boundaries. One instance per query.
 */
public final class AdaptiveEventPlanning implements AdaptiveStageEvents, StageHintSource {
    private final DistributedPlanner planner;
    private final StageEventDispatcher dispatcher;
    private final String queryId;
    private final List<Long> workerMemoryLimits;
    private final Map<String, String> config;
    private final CostModel costs;
    private final Map<Integer, BoundaryRequirements> requirements = new ConcurrentHashMap<>();
    private final Map<Integer, ExecutionPlan> producerPlans = new ConcurrentHashMap<>();

    public AdaptiveEventPlanning(DistributedPlanner planner, StageEventDispatcher dispatcher, String queryId, List<Long> workerMemoryLimits,
            Map<String, String> config, CostModel costs) {
        this.planner = requireNonNull(planner, "planner is null");
        this.dispatcher = requireNonNull(dispatcher, "dispatcher is null");
        this.queryId = requireNonNull(queryId, "queryId is null");
        this.workerMemoryLimits = List.copyOf(requireNonNull(workerMemoryLimits, "workerMemoryLimits is null"));
        this.config = Map.copyOf(requireNonNull(config, "config is null"));
        this.costs = requireNonNull(costs, "costs is null");
    }

    /** What the handlers required at each boundary so far, by producer stage id. */
    public Map<Integer, BoundaryRequirements> requirements() {
        return Map.copyOf(requirements);
    }

    @Override
    public StageFragment onStageSized(StageFragment fragment, List<StageFragment> fragments, Stage stage) {
        if (dispatcher.isEmpty()) {
            return fragment;
        }
        Optional<StageBoundary> boundary = StageBoundaries.of(queryId, fragment, fragments, planner, workerMemoryLimits, config,
                PlanningMode.ADAPTIVE);
        if (boundary.isEmpty()) {
            return fragment;
        }
        StageBuiltOutcome outcome = dispatcher.onStageBuilt(StageBoundaries.builtEvent(boundary.get(), fragment.plan(), stage.taskCount(), costs));
        BoundaryRequirements required = outcome.requirements();
        if (required.partitionsPerConsumerTask().isPresent()) {
            // The consumer's fragment is cut before the loop starts; a P_c override would have to
            // reach its StageInputExec too, which the loop does not do yet.
            throw new QuiverException(ErrorCode.NOT_SUPPORTED, "an exact consumer count with its own P_c (" + required.exact().orElseThrow().origin()
                    + ") is not supported with distributed.dynamic_task_count=true yet; return withExactConsumerTasks(n) without P_c,"
                    + " or plan statically (SET distributed.dynamic_task_count = false)");
        }
        requirements.put(fragment.stageId(), required);
        StageFragment built = outcome.rewritten() ? outcome.applyTo(fragment) : fragment;
        producerPlans.put(fragment.stageId(), built.plan());
        return built;
    }

    @Override
    public void onStageSampled(Stage producer, SampledStatistics statistics) {
        BoundaryRequirements built = requirements.get(producer.stageId());
        if (built == null) {
            return;
        }
        requirements.put(producer.stageId(), dispatcher.onStageSampled(
                StageBoundaries.sampledEvent(built.boundary(), producerPlans.get(producer.stageId()), producer.taskCount(), statistics), built));
    }

    @Override
    public List<TaskCountHint> hints(int stageId, ExecutionPlan plan, List<Stage> producers) {
        List<TaskCountHint> hints = new ArrayList<>();
        collect(plan, hints);
        return hints;
    }

    private void collect(ExecutionPlan plan, List<TaskCountHint> hints) {
        if (plan instanceof StageInputExec input) {
            BoundaryRequirements required = requirements.get(input.producerStageId());
            if (required != null) {
                hints.addAll(required.hints());
            }
            return;
        }
        plan.children().forEach(child -> collect(child, hints));
    }
}
