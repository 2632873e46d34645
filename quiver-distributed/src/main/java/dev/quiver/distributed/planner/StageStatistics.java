package dev.quiver.distributed.planner;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.aqe.SampledStatistics;
import dev.quiver.distributed.aqe.StageCost;
import dev.quiver.distributed.event.PlanningMode;
import dev.quiver.distributed.plan.Stage;
import dev.quiver.distributed.plan.StageFragment;
import dev.quiver.distributed.plan.TaskCountHint;
import dev.quiver.engine.execution.ExecutionPlan;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where the {@link StagePlanningLoop} gets a stage's statistics, and so its advisory task count
 * (DESIGN §5 steps 1–2): the one thing that tells static planning from AQE.
 * {@link EstimatedStatistics} plans from the sources' estimates, before anything runs;
 * {@link SampledStageStatistics} waits for each input stage's samples and sizes by cost.
 */
public interface StageStatistics {
    /** How the stage events describe these statistics. */
    PlanningMode mode();

    /**
     * What the stages {@code fragment} reads produced, by producer stage id: their extrapolated
     * samples once each is complete (AQE), or nothing when planning from estimates (the cutter gave
     * each stage input its producer's estimated statistics). Empty when the query ended while waiting.
     */
    Optional<Map<Integer, SampledStatistics>> inputs(StageFragment fragment);

    /** The advisory side of {@code fragment}'s sizing: its hints from these statistics, and AQE's cost decision. */
    Advice advise(StageFragment fragment, List<Stage> producers);

    /** The hint source leaf {@code leaf} gives its stage under these statistics, if any. */
    Optional<TaskCountHint> leafHint(ExecutionPlan leaf);

    /**
     * @param hints merged with the stage's node hints and the handlers' counts at its inputs
     * @param cost AQE's cost of the stage and the count it asks for; empty when planning statically
     */
    record Advice(List<TaskCountHint> hints, Optional<CostAdvice> cost) {
        public Advice {
            hints = List.copyOf(requireNonNull(hints, "hints is null"));
            requireNonNull(cost, "cost is null");
        }
    }

    /**
     * A stage's cost (DESIGN §5 step 1) and the {@code Desired} count it gives (step 2).
     *
     * @param sourceHints the {@code Desired} hints of the stage's source leaves' {@code TaskEstimator}s,
     *     which AQE does not merge (it sizes from the cost) but shows beside its decision, so that a
     *     custom source sees its estimator at work
     */
    record CostAdvice(StageCost cost, TaskCountHint.Desired hint, List<TaskCountHint> sourceHints) {
        public CostAdvice {
            requireNonNull(cost, "cost is null");
            requireNonNull(hint, "hint is null");
            sourceHints = List.copyOf(requireNonNull(sourceHints, "sourceHints is null"));
        }
    }
}
