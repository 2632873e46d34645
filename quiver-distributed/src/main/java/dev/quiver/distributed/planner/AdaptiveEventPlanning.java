package dev.quiver.distributed.planner;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.aqe.CostModel;
import dev.quiver.distributed.aqe.SampledStatistics;
import dev.quiver.distributed.event.PlanningMode;
import dev.quiver.distributed.event.StageBoundary;
import dev.quiver.distributed.operator.StageInputExec;
import dev.quiver.distributed.plan.Stage;
import dev.quiver.distributed.plan.StageFragment;
import dev.quiver.distributed.plan.StageHintSource;
import dev.quiver.distributed.plan.TaskCountHint;
import dev.quiver.engine.execution.ExecutionPlan;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The stage events of one adaptive query (DESIGN §6 in the loop of DESIGN §5): after a producer is
 * sized, its {@code DynamicStageBuiltEvent} (a rewrite is sized again by the loop; an exact count
 * above the limit or in conflict fails before the producer is dispatched); after it is sampled, its
 * {@code StageSampledEvent}; and, as the loop's {@link StageHintSource}, each consumer's hints from
 * what the handlers required at its input boundaries. A {@code P_c} a handler sets with its exact
 * count ({@code withExactConsumerTasks(n, P_c)}) is the one exception to "P is fixed at planning"
 * (DESIGN §5, §6): the producer's output and, when the consumer closes, its inputs are rewritten to
 * it, so the consumer is sized with {@code P = P_c} and the late-bound head is
 * {@code Hash(keys, P_c × n)}. One instance per query.
 */
public final class AdaptiveEventPlanning implements AdaptiveStageEvents, StageHintSource {
    private final DistributedPlanner planner;
    private final StageEventDispatcher dispatcher;
    private final String queryId;
    private final List<Long> workerMemoryLimits;
    private final CostModel costs;
    private final Map<Integer, BoundaryRequirements> requirements = new ConcurrentHashMap<>();
    private final Map<Integer, ExecutionPlan> producerPlans = new ConcurrentHashMap<>();
    /** The {@code P_c} a handler set at a boundary, by producer stage id: fixed when the producer is dispatched, kept when a later sampled count replaces the exact that set it. */
    private final Map<Integer, Integer> partitions = new ConcurrentHashMap<>();

    public AdaptiveEventPlanning(DistributedPlanner planner, StageEventDispatcher dispatcher, String queryId, List<Long> workerMemoryLimits,
            CostModel costs) {
        this.planner = requireNonNull(planner, "planner is null");
        this.dispatcher = requireNonNull(dispatcher, "dispatcher is null");
        this.queryId = requireNonNull(queryId, "queryId is null");
        this.workerMemoryLimits = List.copyOf(requireNonNull(workerMemoryLimits, "workerMemoryLimits is null"));
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
        Optional<StageBoundary> boundary = StageBoundaries.of(queryId, fragment, fragments, planner, workerMemoryLimits, PlanningMode.ADAPTIVE);
        if (boundary.isEmpty()) {
            return fragment;
        }
        StageBuiltOutcome outcome = dispatcher.onStageBuilt(StageBoundaries.builtEvent(boundary.get(), fragment.plan(), stage.taskCount(), costs));
        BoundaryRequirements required = outcome.requirements();
        requirements.put(fragment.stageId(), required);
        StageFragment consumer = fragments.stream().filter(f -> f.stageId() == fragment.consumerStageId()).findFirst().orElseThrow();
        // before this producer is dispatched: its P_c must agree with the consumer's shuffle inputs decided so far
        ShuffleLayout.checkShuffleInputs(consumer, requirements);
        StageFragment built = outcome.applyTo(fragment);
        if (required.partitionsPerConsumerTask().isPresent()) {
            // fixed from now on: the consumer's inputs are read with it (onStageClosed) and its P becomes it
            int pc = required.partitionsPerConsumerTask().getAsInt();
            partitions.put(fragment.stageId(), pc);
            built = built.withShufflePartitionsPerConsumerTask(pc);
        }
        producerPlans.put(fragment.stageId(), built.plan());
        return built;
    }

    @Override
    public void onStageSampled(Stage producer, SampledStatistics statistics) {
        BoundaryRequirements built = requirements.get(producer.stageId());
        if (built == null) {
            return;
        }
        Integer pc = partitions.get(producer.stageId());
        StageBoundary boundary = pc == null ? built.boundary() : built.boundary().withPartitionsPerConsumerTask(pc);
        requirements.put(producer.stageId(), dispatcher.onStageSampled(
                StageBoundaries.sampledEvent(boundary, producerPlans.get(producer.stageId()), producer.taskCount(), statistics), built));
    }

    /** {@code fragment} with each shuffle input whose boundary got a {@code P_c} from a handler read with it: that {@code P_c} is the stage's {@code P}. */
    @Override
    public StageFragment onStageClosed(StageFragment fragment) {
        return partitions.isEmpty() ? fragment : ShuffleLayout.withInputPartitions(fragment, partitions);
    }

    @Override
    public List<TaskCountHint> hints(int stageId, ExecutionPlan plan, List<Stage> producers) {
        return BoundaryRequirements.hintsFor(ProducerRewriteCheck.inputs(plan).stream().map(StageInputExec::producerStageId).toList(), requirements);
    }
}
