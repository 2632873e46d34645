package dev.quiver.distributed.coordinator;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.aqe.StageDecision;
import dev.quiver.distributed.plan.DistributedPlan;
import dev.quiver.distributed.plan.Stage;
import dev.quiver.distributed.protocol.OperatorMetricsSnapshot;
import dev.quiver.distributed.protocol.TaskReport;
import dev.quiver.distributed.protocol.TaskState;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.PlanTree;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A distributed query after every one of its tasks reached a terminal state: the plan as it was
 * dispatched, each worker task's final report (state, worker, operator metrics, error), and the
 * metrics of the head stage, which ran on the coordinator.
 *
 * @param taskReports one report per dispatched worker task, ordered by stage and task index
 * @param headMetrics the head stage plan's operator metrics in pre-order (empty if it never ran)
 * @param failure why the query failed, if it did
 * @param decisions with adaptive task counts, what AQE decided for each stage (by stage id) and, once
 *        sampled, the stage's extrapolated output; empty for a statically planned query
 * @param warnings what the user should know about how the query ran, first in EXPLAIN ANALYZE: a
 *        worker skipped because it did not answer, an earlier attempt that lost a worker and was retried
 */
public record FinalPlan(String queryId, DistributedPlan plan, List<TaskReport> taskReports, List<OperatorMetricsSnapshot> headMetrics,
        Optional<QuiverException> failure, Map<Integer, StageDecision> decisions, List<String> warnings) {
    /** Without warnings. */
    public FinalPlan(String queryId, DistributedPlan plan, List<TaskReport> taskReports, List<OperatorMetricsSnapshot> headMetrics,
            Optional<QuiverException> failure, Map<Integer, StageDecision> decisions) {
        this(queryId, plan, taskReports, headMetrics, failure, decisions, List.of());
    }

    /** A plan sized statically (no AQE decisions). */
    public FinalPlan(String queryId, DistributedPlan plan, List<TaskReport> taskReports, List<OperatorMetricsSnapshot> headMetrics,
            Optional<QuiverException> failure) {
        this(queryId, plan, taskReports, headMetrics, failure, Map.of());
    }

    public FinalPlan {
        decisions = Map.copyOf(requireNonNull(decisions, "decisions is null"));
        warnings = List.copyOf(requireNonNull(warnings, "warnings is null"));
        requireNonNull(queryId, "queryId is null");
        requireNonNull(plan, "plan is null");
        taskReports = taskReports.stream()
                .sorted(Comparator.comparingInt((TaskReport r) -> r.taskId().stageId()).thenComparingInt(r -> r.taskId().taskIndex()))
                .toList();
        headMetrics = List.copyOf(requireNonNull(headMetrics, "headMetrics is null"));
        requireNonNull(failure, "failure is null");
    }

    /** This plan with {@code earlier} warnings before its own (a retried query's). */
    public FinalPlan withWarningsBefore(List<String> earlier) {
        List<String> all = new ArrayList<>(earlier);
        all.addAll(warnings);
        return new FinalPlan(queryId, plan, taskReports, headMetrics, failure, decisions, all);
    }

    /** The reports of stage {@code stageId}'s tasks, by task index. */
    public List<TaskReport> reportsOf(int stageId) {
        return taskReports.stream().filter(r -> r.taskId().stageId() == stageId).toList();
    }

    /**
     * The named counters of each node of {@code stage}'s plan, in the pre-order of
     * {@link Stage#plan()}, summed over the stage's task reports (for the head stage, over the
     * coordinator's metrics): e.g. a scan's {@code rows_skipped} over every task that ran it.
     */
    public List<Map<String, Long>> stageCounters(Stage stage) {
        requireNonNull(stage, "stage is null");
        int planNodes = PlanTree.nodes(stage.plan()).size();
        List<Map<String, Long>> sums = new ArrayList<>();
        for (int i = 0; i < planNodes; i++) {
            sums.add(new TreeMap<>());
        }
        List<List<OperatorMetricsSnapshot>> reported = stage.isHead() ? List.of(headMetrics)
                : reportsOf(stage.stageId()).stream().map(TaskReport::metrics).toList();
        for (List<OperatorMetricsSnapshot> metrics : reported) {
            int offset = nodesAboveStagePlan(metrics.size(), planNodes);
            for (OperatorMetricsSnapshot operator : metrics) {
                int index = operator.nodeIndex() - offset;
                if (index >= 0 && index < planNodes) {
                    operator.counters().forEach((name, value) -> sums.get(index).merge(name, value, Long::sum));
                }
            }
        }
        return sums.stream().map(Collections::unmodifiableMap).toList();
    }

    /**
     * How many of the {@code reportedNodes} nodes a task reported sit above its stage plan of
     * {@code planNodes} nodes: a worker reports the plan it executed, which for a shuffle producer
     * has the producer head ({@code RepartitionExec}) on top, and under AQE a sampler below it (0 to 2).
     */
    public static int nodesAboveStagePlan(int reportedNodes, int planNodes) {
        return Math.max(0, Math.min(2, reportedNodes - planNodes));
    }

    /** How many tasks ended in {@code state}. */
    public long count(TaskState state) {
        return taskReports.stream().filter(r -> r.state() == state).count();
    }
}
