package dev.quiver.distributed.aqe;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.plan.TaskCountHint;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What AQE decided for one stage and why, for events, {@code EXPLAIN ANALYZE} and
 * {@code finalPlan()} (issue 5 item 6): the cost, the hint that set the task count (with its
 * origin, which names the formula, a node's requirement or the limit), and, once the stage was
 * sampled, its extrapolated output.
 *
 * @param cost the stage's cost when it was sized
 * @param costHint the hint the cost gave ({@link AdaptiveTaskCount#desired})
 * @param chosen the merged hint that set the task count
 * @param sampled the extrapolated output; empty until the stage is sampled (and for the head stage)
 * @param leafHints the advisory hints of the stage's source leaves' {@code TaskEstimator}s, which AQE
 *     does not merge (it sizes from the cost) but shows, so that a custom source sees its estimator at work
 */
public record StageDecision(int stageId, StageCost cost, TaskCountHint.Desired costHint, TaskCountHint chosen, Optional<SampledStatistics> sampled,
        List<TaskCountHint> leafHints) {
    public StageDecision {
        requireNonNull(cost, "cost is null");
        requireNonNull(costHint, "costHint is null");
        requireNonNull(chosen, "chosen is null");
        requireNonNull(sampled, "sampled is null");
        leafHints = List.copyOf(requireNonNull(leafHints, "leafHints is null"));
    }

    /** A decision without source-leaf hints (a stage that reads only other stages). */
    public StageDecision(int stageId, StageCost cost, TaskCountHint.Desired costHint, TaskCountHint chosen, Optional<SampledStatistics> sampled) {
        this(stageId, cost, costHint, chosen, sampled, List.of());
    }

    public StageDecision withSample(SampledStatistics statistics) {
        return new StageDecision(stageId, cost, costHint, chosen, Optional.of(statistics), leafHints);
    }

    /**
     * The lines a plan shows for the stage, e.g. {@code aqe: 4 tasks from Desired(4) from cost ...},
     * then the estimate next to the actual output when both are known.
     */
    public List<String> explainLines(Optional<EstimationAccuracy.StageActual> actual) {
        List<String> lines = new ArrayList<>();
        lines.add("aqe: " + chosen.taskCount() + (chosen.taskCount() == 1 ? " task" : " tasks") + " from " + chosen);
        leafHints.forEach(hint -> lines.add("aqe: source estimate " + hint + " (advisory: AQE sizes from the cost)"));
        lines.add("aqe: " + cost.summary());
        sampled.ifPresent(estimate -> {
            lines.add("aqe: " + estimate.summary());
            actual.ifPresent(real -> lines.add("aqe: actual rows=" + real.rows() + " (q-error "
                    + String.format(Locale.ROOT, "%.2f", EstimationAccuracy.qError(estimate.rows(), real.rows())) + "), bytes=" + real.bytes()
                    + (real.distinctKeys() >= 0 ? ", distinct keys=" + real.distinctKeys() : "")));
        });
        return lines;
    }
}
