package dev.quiver.distributed.explain;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.aqe.EstimationAccuracy;
import dev.quiver.distributed.coordinator.FinalPlan;
import dev.quiver.distributed.plan.DistributedPlan;
import dev.quiver.distributed.plan.Stage;
import dev.quiver.distributed.protocol.OperatorMetricsSnapshot;
import dev.quiver.distributed.protocol.TaskReport;
import dev.quiver.engine.execution.TimeBreakdown;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Renders a {@link DistributedPlan} for {@code EXPLAIN} (DESIGN §7): as text, stages as nested
 * blocks with their task count, partitions per task, the hint and origin behind the task count,
 * the output boundary with its partition math and the plan of task 0; or as Graphviz DOT, one
 * cluster per stage. Given the tasks' {@link TaskReport}s it renders {@code EXPLAIN ANALYZE}: each
 * stage lists its tasks (worker, terminal state, output rows, compute time, peak memory, error) and
 * each operator its metrics summed over the stage's tasks. A report may carry the producer head on
 * top of the stage plan (as a worker executes it); its metrics are shown as the stage's output
 * head. The output depends only on the arguments.
 */
public final class DistributedExplain {
    private DistributedExplain() {}

    public static String text(DistributedPlan plan) {
        return new TextRenderer(requireNonNull(plan, "plan is null"), Optional.empty(), Map.of()).render();
    }

    /** {@code EXPLAIN ANALYZE}: {@link #text(DistributedPlan)} with every task's report. */
    public static String text(DistributedPlan plan, Collection<TaskReport> reports) {
        return new TextRenderer(requireNonNull(plan, "plan is null"), Optional.of(byStage(plan, reports)), Map.of()).render();
    }

    public static String dot(DistributedPlan plan) {
        return new DotRenderer(requireNonNull(plan, "plan is null"), Optional.empty(), Map.of()).render();
    }

    public static String dot(DistributedPlan plan, Collection<TaskReport> reports) {
        return new DotRenderer(requireNonNull(plan, "plan is null"), Optional.of(byStage(plan, reports)), Map.of()).render();
    }

    /**
     * {@code EXPLAIN ANALYZE} of an executed query: its plan, every worker task's report, the head
     * stage's metrics from the coordinator, and first lines with the failure if the query failed and
     * its warnings (a worker skipped, an attempt retried).
     */
    public static String text(FinalPlan executed) {
        requireNonNull(executed, "executed is null");
        return new TextRenderer(executed.plan(), Optional.of(byStage(executed)), decisionLines(executed))
                .render(executed.failure().map(failure -> failure.errorCode() + ": " + failure.getMessage()), executed.warnings());
    }

    /**
     * With adaptive task counts, each stage's AQE decision (task count and why, cost) and, for a
     * sampled stage, its estimated output next to what its tasks really output (docs/aqe.md).
     */
    private static Map<Integer, List<String>> decisionLines(FinalPlan executed) {
        Map<Integer, List<String>> lines = new TreeMap<>();
        executed.decisions().forEach((stageId, decision) -> {
            Stage stage = executed.plan().stage(stageId);
            Optional<EstimationAccuracy.StageActual> actual = stage.isHead() ? Optional.empty()
                    : Optional.of(EstimationAccuracy.actualOutput(stage, executed.reportsOf(stageId)));
            lines.put(stageId, decision.explainLines(actual));
        });
        return lines;
    }

    /**
     * Every operator of every stage of an executed query with its compute and wait summed over
     * the stage's tasks (the head stage's from the coordinator), for {@code EXPLAIN ANALYZE}'s
     * {@link TimeBreakdown}; stages in id order, each in pre-order.
     */
    public static List<TimeBreakdown.OperatorTime> operatorTimes(FinalPlan executed) {
        requireNonNull(executed, "executed is null");
        Map<Integer, StageMetrics> metrics = byStage(executed);
        List<TimeBreakdown.OperatorTime> times = new ArrayList<>();
        for (Stage stage : executed.plan().stages()) {
            times.addAll(metrics.get(stage.stageId()).operatorTimes(stage));
        }
        return times;
    }

    /** {@link #text(FinalPlan)} as Graphviz DOT. */
    public static String dot(FinalPlan executed) {
        requireNonNull(executed, "executed is null");
        return new DotRenderer(executed.plan(), Optional.of(byStage(executed)), decisionLines(executed)).render();
    }

    /**
     * The uncompressed bytes the producer stages handed to their boundaries, summed over stages (a
     * broadcast counted once, though every consumer task reads it): what a query moved between stages.
     */
    public static long exchangedBytes(DistributedPlan plan, Collection<TaskReport> reports) {
        requireNonNull(plan, "plan is null");
        return StageMetrics.Exchanged.of(plan, byStage(plan, reports)).bytes();
    }

    private static Map<Integer, StageMetrics> byStage(DistributedPlan plan, Collection<TaskReport> reports) {
        return byStage(plan, reports, List.of());
    }

    private static Map<Integer, StageMetrics> byStage(FinalPlan executed) {
        return byStage(executed.plan(), executed.taskReports(), executed.headMetrics());
    }

    private static Map<Integer, StageMetrics> byStage(DistributedPlan plan, Collection<TaskReport> reports, List<OperatorMetricsSnapshot> headMetrics) {
        requireNonNull(reports, "reports is null");
        Map<Integer, List<TaskReport>> grouped = reports.stream().collect(Collectors.groupingBy(report -> report.taskId().stageId(), TreeMap::new,
                Collectors.toList()));
        Map<Integer, StageMetrics> metrics = new TreeMap<>();
        for (Stage stage : plan.stages()) {
            metrics.put(stage.stageId(), new StageMetrics(stage.plan(), grouped.getOrDefault(stage.stageId(), List.of()),
                    stage.isHead() ? headMetrics : List.of()));
        }
        return metrics;
    }
}
