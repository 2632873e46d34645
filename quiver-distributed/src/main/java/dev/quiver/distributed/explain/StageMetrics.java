package dev.quiver.distributed.explain;

import dev.quiver.distributed.coordinator.FinalPlan;
import dev.quiver.distributed.plan.DistributedPlan;
import dev.quiver.distributed.plan.Stage;
import dev.quiver.distributed.protocol.OperatorMetricsSnapshot;
import dev.quiver.distributed.protocol.TaskReport;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.PlanTree;
import dev.quiver.engine.execution.TimeBreakdown;
import dev.quiver.engine.memory.ByteSize;
import dev.quiver.engine.metrics.OperatorMetrics;
import dev.quiver.engine.metrics.PartitionMetrics;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The reports of one stage's tasks and their operators' metrics summed over the tasks, by
 * pre-order node index of the stage plan. A worker reports the plan it executed, which for a
 * shuffle producer has the producer head ({@code RepartitionExec}) on top: a report with one node
 * more than the stage plan has its first node counted as the head (with two more, under AQE, the
 * second is the sampler, which is not counted).
 */
final class StageMetrics {
    /** Sum slots: output rows, output bytes, elapsed compute, peak memory. */
    private static final int ROWS = 0;
    private static final int BYTES = 1;
    private static final int COMPUTE = 2;
    private static final int PEAK = 3;

    private final List<TaskReport> tasks;
    private final List<OperatorMetricsSnapshot> coordinator;
    private final int planNodes;
    private final long[][] operators;
    /** The named counts of each operator, summed over the tasks. */
    private final List<Map<String, Long>> counters;
    private final long[] head = new long[4];
    private boolean hasHead;
    /** Whether any task (or the coordinator) reported operator metrics: without them the operators show none. */
    private final boolean reported;

    /** @param coordinator the metrics of the head stage's task, which ran on the coordinator and has no report (else empty) */
    StageMetrics(ExecutionPlan stagePlan, List<TaskReport> reports, List<OperatorMetricsSnapshot> coordinator) {
        this.tasks = reports.stream().sorted(Comparator.comparingInt(report -> report.taskId().taskIndex())).toList();
        this.coordinator = List.copyOf(coordinator);
        this.reported = !this.coordinator.isEmpty() || tasks.stream().anyMatch(task -> !task.metrics().isEmpty());
        this.planNodes = count(stagePlan);
        this.operators = new long[planNodes][4];
        this.counters = new ArrayList<>();
        for (int i = 0; i < planNodes; i++) {
            counters.add(new TreeMap<>());
        }
        for (TaskReport report : tasks) {
            int offset = headOffset(report);
            for (OperatorMetricsSnapshot operator : report.metrics()) {
                int index = operator.nodeIndex() - offset;
                if (index < 0) {
                    // the producer head is the top node; an AQE sampler between it and the stage plan replays, so it is not counted
                    if (operator.nodeIndex() == 0) {
                        hasHead = true;
                        add(head, operator);
                    }
                } else if (index < planNodes) {
                    add(operators[index], operator);
                    operator.counters().forEach((name, value) -> counters.get(index).merge(name, value, Long::sum));
                }
            }
        }
        for (OperatorMetricsSnapshot operator : coordinator) {
            if (operator.nodeIndex() < planNodes) {
                add(operators[operator.nodeIndex()], operator);
                operator.counters().forEach((name, value) -> counters.get(operator.nodeIndex()).merge(name, value, Long::sum));
            }
        }
    }

    /** Nodes above the stage plan in a report: the producer head, and under AQE its sampler (0 to 2). */
    private int headOffset(TaskReport report) {
        return FinalPlan.nodesAboveStagePlan(report.metrics().size(), planNodes);
    }

    private static void add(long[] sum, OperatorMetricsSnapshot operator) {
        sum[ROWS] += operator.outputRows();
        sum[BYTES] += operator.outputBytes();
        sum[COMPUTE] += operator.elapsedComputeNanos();
        sum[PEAK] += operator.peakMemoryBytes();
    }

    private static int count(ExecutionPlan plan) {
        return 1 + plan.children().stream().mapToInt(StageMetrics::count).sum();
    }

    /** What the stage's tasks output, e.g. {@code actual rows=600, bytes=4.7 KiB}: the sums of their top operators. */
    String actualOutput() {
        return "actual rows=" + operators[0][ROWS] + ", bytes=" + bytes(operators[0][BYTES]);
    }

    /** The bytes the tasks handed to the boundary above: the producer head's output when reported, else the stage plan's. */
    long exchangedBytes() {
        return hasHead ? head[BYTES] : operators[0][BYTES];
    }

    long exchangedRows() {
        return hasHead ? head[ROWS] : operators[0][ROWS];
    }

    /** What every stage but the head handed to its boundary, summed: what the query moved between stages. */
    record Exchanged(long rows, long bytes) {
        static Exchanged of(DistributedPlan plan, Map<Integer, StageMetrics> metrics) {
            long rows = 0;
            long bytes = 0;
            for (Stage stage : plan.stages()) {
                if (!stage.isHead()) {
                    rows += metrics.get(stage.stageId()).exchangedRows();
                    bytes += metrics.get(stage.stageId()).exchangedBytes();
                }
            }
            return new Exchanged(rows, bytes);
        }
    }

    /** One line per task, by task index (see {@link #task}); the coordinator's task of a head stage says so. */
    List<String> taskLines() {
        List<String> lines = new ArrayList<>(tasks.stream().map(this::task).toList());
        if (!coordinator.isEmpty()) {
            lines.add("task 0 on the coordinator: output_rows=" + coordinator.get(0).outputRows() + ", elapsed_compute=" + millis(compute(coordinator))
                    + ", peak_mem=" + bytes(peak(coordinator)));
        }
        return lines;
    }

    private static long compute(List<OperatorMetricsSnapshot> metrics) {
        return metrics.stream().mapToLong(OperatorMetricsSnapshot::elapsedComputeNanos).sum();
    }

    private static long peak(List<OperatorMetricsSnapshot> metrics) {
        return metrics.stream().mapToLong(OperatorMetricsSnapshot::peakMemoryBytes).sum();
    }

    /**
     * Each operator's compute and wait summed over the stage's tasks, labelled {@code stage N: } and
     * its display line, in pre-order of the stage plan, the producer head first when reported.
     */
    List<TimeBreakdown.OperatorTime> operatorTimes(Stage stage) {
        List<TimeBreakdown.OperatorTime> times = new ArrayList<>();
        String prefix = "stage " + stage.stageId() + ": ";
        if (hasHead) {
            times.add(new TimeBreakdown.OperatorTime(prefix + "producer head", head[COMPUTE], 0));
        }
        List<ExecutionPlan> nodes = PlanTree.nodes(stage.plan());
        for (int i = 0; i < planNodes; i++) {
            times.add(new TimeBreakdown.OperatorTime(prefix + nodes.get(i).displayLine(), operators[i][COMPUTE],
                    counters.get(i).getOrDefault(PartitionMetrics.WAIT_NANOS, 0L)));
        }
        return times;
    }

    /** The producer head's summed metrics, when the workers reported one. */
    Optional<String> head() {
        return hasHead ? Optional.of(summary(head)) : Optional.empty();
    }

    /** The summed metrics of pre-order node {@code index}, or empty when no task reported metrics. */
    Optional<String> operator(int index) {
        return reported ? Optional.of(summary(operators[index]) + OperatorMetrics.counterSummary(counters.get(index))) : Optional.empty();
    }

    private static String summary(long[] sum) {
        return "output_rows=" + sum[ROWS] + ", output_bytes=" + bytes(sum[BYTES]) + ", elapsed_compute=" + millis(sum[COMPUTE])
                + (sum[PEAK] > 0 ? ", peak_mem=" + bytes(sum[PEAK]) : "");
    }

    /** One task's line: where it ran, its state, rows out of its stage plan, compute time, peak memory, error. */
    private String task(TaskReport report) {
        List<OperatorMetricsSnapshot> metrics = report.metrics();
        int offset = headOffset(report);
        long rows = metrics.size() > offset ? metrics.get(offset).outputRows() : 0;
        long compute = compute(metrics);
        long peak = peak(metrics);
        StringBuilder line = new StringBuilder("task ").append(report.taskId().taskIndex()).append(" on ").append(report.worker()).append(": ")
                .append(report.state());
        if (!metrics.isEmpty()) {
            line.append(", output_rows=").append(rows).append(", elapsed_compute=").append(millis(compute)).append(", peak_mem=").append(bytes(peak));
        }
        report.error().ifPresent(error -> line.append(", error=").append(error.code()).append(": ").append(error.message()));
        return line.toString();
    }

    static String millis(long nanos) {
        return String.format(Locale.ROOT, "%.1fms", nanos / 1e6);
    }

    static String bytes(long bytes) {
        return ByteSize.formatBytes(bytes);
    }
}
