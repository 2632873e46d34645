package dev.quiver.distributed.planner;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.aqe.CostModel;
import dev.quiver.distributed.aqe.SampledStatistics;
import dev.quiver.distributed.aqe.StageDecision;
import dev.quiver.distributed.event.StageBoundary;
import dev.quiver.distributed.event.StageSampledEvent;
import dev.quiver.distributed.operator.BoundaryKind;
import dev.quiver.distributed.operator.StageInputExec;
import dev.quiver.distributed.plan.DistributedPlan;
import dev.quiver.distributed.plan.Stage;
import dev.quiver.distributed.plan.StageConsistency;
import dev.quiver.distributed.plan.StageFragment;
import dev.quiver.distributed.plan.TaskCountHint;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.PlanTree;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The one stage-planning loop, for static planning and for AQE (DESIGN §4–§6): cuts the plan, then
 * takes its stages producers first and, for each,
 * <ol>
 *   <li>waits for what its inputs produced ({@link StageStatistics#inputs}: nothing to wait for
 *       when estimated; under AQE each input's sample) and fires each sampled input's
 *       {@code StageSampledEvent};</li>
 *   <li>closes it: each shuffle input is read with the {@code P_c} decided at its boundary, each
 *       input carries its producer's sampled statistics ({@link Listener#closed});</li>
 *   <li>sizes it: the statistics' advisory hints ({@link StageStatistics#advise}), the handlers'
 *       counts at its inputs and its nodes' hints, merged by {@link StageSizer};</li>
 *   <li>unless it is the head stage, fires its {@code DynamicStageBuiltEvent}, sizes a rewrite (or
 *       a {@code P_c} of a handler's own) again, and checks what the handlers now require of its
 *       consumer ({@link ConsumerRequirements}) ({@link Listener#sized});</li>
 *   <li>hands on, in order, every stage whose consumer's inputs are all decided
 *       ({@link Listener#ready}): only then may it be dispatched, so that every exact count is
 *       validated before the first producer that feeds it runs.</li>
 * </ol>
 * Every intermediate plan runs as it is, and the result passes {@link StageConsistency}. One
 * instance per query; not thread-safe (it runs on the thread that plans or starts the query).
 */
public final class StagePlanningLoop {
    /** What the loop tells whoever runs the stages: nothing to do when planning statically; AQE's events and dispatch. */
    public interface Listener {
        /** Whether the query ended (failed or was cancelled): the loop stops before the next stage. */
        default boolean ended() {
            return false;
        }

        /** Every input of {@code fragment} is in and it is about to be sized. */
        default void closed(StageFragment fragment) {}

        /** {@code stage}'s task count is final ({@code decision}: AQE's cost decision, empty when static). */
        default void sized(Stage stage, Optional<StageDecision> decision) {}

        /** Every exact count of {@code stage}'s consumer is validated: it may be dispatched. The head stage comes last. */
        default void ready(Stage stage) {}

        static Listener none() {
            return new Listener() {};
        }
    }

    /**
     * @param plan every stage, producers first, the head stage last
     * @param requirements what the handlers required at each boundary, by producer stage id
     * @param decisions AQE's cost decision of each stage, by stage id (empty when static)
     */
    public record Result(DistributedPlan plan, Map<Integer, BoundaryRequirements> requirements, Map<Integer, StageDecision> decisions) {
        public Result {
            requireNonNull(plan, "plan is null");
            requirements = Map.copyOf(requireNonNull(requirements, "requirements is null"));
            decisions = Map.copyOf(requireNonNull(decisions, "decisions is null"));
        }
    }

    private final DistributedPlanner planner;
    private final StageStatistics statistics;
    private final StageEvents events;
    private final Listener listener;
    private final CostModel costs = new CostModel();
    private final List<StageFragment> fragments = new ArrayList<>();
    private final List<Stage> stages = new ArrayList<>();
    private final List<Stage> waiting = new ArrayList<>();
    private final Map<Integer, BoundaryRequirements> requirements = new LinkedHashMap<>();
    private final Map<Integer, StageDecision> decisions = new LinkedHashMap<>();

    public StagePlanningLoop(DistributedPlanner planner, StageStatistics statistics, StageEvents events, Listener listener) {
        this.planner = requireNonNull(planner, "planner is null");
        this.statistics = requireNonNull(statistics, "statistics is null");
        this.events = requireNonNull(events, "events is null");
        this.listener = requireNonNull(listener, "listener is null");
    }

    /** Plans {@code singleNodePlan}; empty when the query ended before its head stage was sized. May be called once. */
    public Optional<Result> run(ExecutionPlan singleNodePlan) {
        if (!fragments.isEmpty()) {
            throw new IllegalStateException("a stage-planning loop runs once");
        }
        fragments.addAll(planner.cut(requireNonNull(singleNodePlan, "singleNodePlan is null")));
        for (int index = 0; index < fragments.size(); index++) {
            if (listener.ended()) {
                return Optional.empty();
            }
            Optional<Map<Integer, SampledStatistics>> inputs = statistics.inputs(fragments.get(index));
            if (inputs.isEmpty()) {
                return Optional.empty();
            }
            inputs.get().forEach(this::fireSampled);
            listener.closed(fragments.get(index));
            StageFragment closed = close(fragments.get(index), inputs.get());
            fragments.set(index, closed);
            Stage stage = closed.isHead() ? size(closed) : build(index, closed);
            stages.add(stage);
            waiting.add(stage);
            release();
            if (stage.isHead()) {
                DistributedPlan plan = new DistributedPlan(singleNodePlan, stages);
                StageConsistency.check(plan);
                return Optional.of(new Result(plan, requirements, decisions));
            }
        }
        throw new QuiverException(ErrorCode.PLAN_ERROR, "the stages of the plan have no head stage");
    }

    /** Sizes a stage that feeds a boundary and fires its stage-built event; sizes it again after a rewrite or a {@code P_c} of a handler's own. */
    private Stage build(int index, StageFragment fragment) {
        Stage stage = size(fragment);
        Optional<StageBoundary> boundary = events.fire()
                ? StageBoundaries.of(events, fragment, fragments, planner.settings(), statistics) : Optional.empty();
        if (boundary.isEmpty()) {
            listener.sized(stage, Optional.ofNullable(decisions.get(stage.stageId())));
            return stage;
        }
        StageBuiltOutcome outcome = events.dispatcher().onStageBuilt(StageBoundaries.builtEvent(boundary.get(), fragment.plan(), stage.taskCount(), costs));
        requirements.put(fragment.stageId(), outcome.requirements());
        // before anything that feeds the consumer is dispatched: its inputs' requirements so far must agree
        ConsumerRequirements.check(StageBoundaries.fragment(fragments, fragment.consumerStageId()), requirements, planner.settings());
        StageFragment built = outcome.applyTo(fragment);
        OptionalInt partitions = outcome.requirements().partitionsPerConsumerTask();
        if (partitions.isPresent()) {
            built = built.withShufflePartitionsPerConsumerTask(partitions.getAsInt());
        }
        if (built != fragment) {
            fragments.set(index, built);
            stage = size(built);
        }
        listener.sized(stage, Optional.ofNullable(decisions.get(stage.stageId())));
        return stage;
    }

    /** Merges the statistics' hints and the handlers' counts at the fragment's inputs; records AQE's decision. */
    private Stage size(StageFragment fragment) {
        StageStatistics.Advice advice = statistics.advise(fragment, stages);
        List<TaskCountHint> hints = new ArrayList<>(advice.hints());
        hints.addAll(BoundaryRequirements.hintsFor(fragment.inputStageIds(), requirements));
        Stage stage = planner.size(fragment, stages, hints);
        advice.cost().ifPresent(cost -> decisions.put(stage.stageId(),
                new StageDecision(stage.stageId(), cost.cost(), cost.hint(), stage.taskCountHint(), Optional.empty(), cost.sourceHints())));
        if (stage.isHead()) {
            listener.sized(stage, Optional.ofNullable(decisions.get(stage.stageId())));
        }
        return stage;
    }

    /** The producer of {@code producerStageId} was sampled: its handlers may confirm or raise their count (DESIGN §6). */
    private void fireSampled(int producerStageId, SampledStatistics sampled) {
        BoundaryRequirements built = requirements.get(producerStageId);
        if (built == null) {
            return;
        }
        Stage producer = stages.stream().filter(stage -> stage.stageId() == producerStageId).findFirst().orElseThrow();
        StageBoundary boundary = built.boundary().withPartitionsPerConsumerTask(built.effectivePartitionsPerConsumerTask());
        ExecutionPlan producerPlan = StageBoundaries.fragment(fragments, producerStageId).plan();
        OptionalInt exact = built.exact().map(hint -> OptionalInt.of(hint.taskCount())).orElse(OptionalInt.empty());
        requirements.put(producerStageId, events.dispatcher().onStageSampled(
                new StageSampledEvent(boundary, producerPlan, producer.taskCount(), sampled, exact), built));
        ConsumerRequirements.check(StageBoundaries.fragment(fragments, built.boundary().consumerStageId()), requirements, planner.settings());
    }

    /** {@code fragment} with each shuffle input read with its boundary's {@code P_c} and each input carrying its producer's sample. */
    private StageFragment close(StageFragment fragment, Map<Integer, SampledStatistics> sampled) {
        Map<Integer, Integer> partitions = new LinkedHashMap<>();
        for (int input : fragment.inputStageIds()) {
            BoundaryRequirements required = requirements.get(input);
            if (required != null && required.boundary().kind() == BoundaryKind.SHUFFLE) {
                required.partitionsPerConsumerTask().ifPresent(pc -> partitions.put(input, pc));
            }
        }
        StageFragment read = ShuffleLayout.withInputPartitions(fragment, partitions);
        if (sampled.isEmpty()) {
            return read;
        }
        return read.withPlan(PlanTree.rewrite(read.plan(), node -> node instanceof StageInputExec input && sampled.containsKey(input.producerStageId())
                ? input.withStatistics(sampled.get(input.producerStageId()).statistics()) : node));
    }

    /** Hands on, in sizing order, every waiting stage whose consumer's inputs are all sized. */
    private void release() {
        for (Iterator<Stage> it = waiting.iterator(); it.hasNext();) {
            Stage stage = it.next();
            if (stage.isHead() || consumerInputsSized(stage)) {
                it.remove();
                listener.ready(stage);
            }
        }
    }

    private boolean consumerInputsSized(Stage stage) {
        int consumer = stage.output().orElseThrow().consumerStageId();
        List<Integer> inputs = StageBoundaries.fragment(fragments, consumer).inputStageIds();
        return inputs.stream().allMatch(input -> stages.stream().anyMatch(sized -> sized.stageId() == input));
    }
}
