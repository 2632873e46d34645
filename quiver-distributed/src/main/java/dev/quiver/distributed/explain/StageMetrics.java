package dev.quiver.distributed.explain;

import dev.quiver.distributed.task.OperatorMetricsSnapshot;
import dev.quiver.distributed.task.TaskReport;
import dev.quiver.engine.memory.ByteSize;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/** The reports of one stage's tasks and their operators' metrics summed over the tasks, by pre-order node index. */
final class StageMetrics {
    private final List<TaskReport> tasks;
    private final List<long[]> operators = new ArrayList<>();

    /** Sum slots: output rows, output bytes, elapsed compute, peak memory. */
    private static final int ROWS = 0;
    private static final int BYTES = 1;
    private static final int COMPUTE = 2;
    private static final int PEAK = 3;

    StageMetrics(List<TaskReport> reports) {
        this.tasks = reports.stream().sorted(Comparator.comparingInt(report -> report.taskId().taskIndex())).toList();
        for (TaskReport report : tasks) {
            for (OperatorMetricsSnapshot operator : report.metrics()) {
                while (operators.size() <= operator.nodeIndex()) {
                    operators.add(new long[4]);
                }
                long[] sum = operators.get(operator.nodeIndex());
                sum[ROWS] += operator.outputRows();
                sum[BYTES] += operator.outputBytes();
                sum[COMPUTE] += operator.elapsedComputeNanos();
                sum[PEAK] += operator.peakMemoryBytes();
            }
        }
    }

    /** The rows the stage's tasks output: the sum of their top operators' output rows. */
    long outputRows() {
        return operators.isEmpty() ? 0 : operators.get(0)[ROWS];
    }

    List<TaskReport> tasks() {
        return tasks;
    }

    /** The summed metrics of pre-order node {@code index}, or empty text when no task reported it. */
    String operator(int index) {
        if (index >= operators.size()) {
            return "";
        }
        long[] sum = operators.get(index);
        return "output_rows=" + sum[ROWS] + ", output_bytes=" + bytes(sum[BYTES]) + ", elapsed_compute=" + millis(sum[COMPUTE])
                + (sum[PEAK] > 0 ? ", peak_mem=" + bytes(sum[PEAK]) : "");
    }

    /** One task's line: where it ran, its state, rows out, compute time, peak memory, error. */
    static String task(TaskReport report) {
        List<OperatorMetricsSnapshot> metrics = report.metrics();
        long rows = metrics.isEmpty() ? 0 : metrics.get(0).outputRows();
        long compute = metrics.stream().mapToLong(OperatorMetricsSnapshot::elapsedComputeNanos).sum();
        long peak = metrics.stream().mapToLong(OperatorMetricsSnapshot::peakMemoryBytes).sum();
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
