package dev.quiver.session;

import dev.quiver.distributed.coordinator.FinalPlan;
import dev.quiver.distributed.plan.DistributedPlan;
import dev.quiver.distributed.plan.Stage;
import dev.quiver.distributed.task.OperatorMetricsSnapshot;
import dev.quiver.distributed.task.TaskReport;
import dev.quiver.engine.execution.PlanDisplay;
import java.util.List;
import java.util.Optional;

/**
 * A short text rendering of a distributed plan, stage by stage, and with a {@link FinalPlan} each
 * task's terminal state, worker and output rows. The session uses it until the planner's renderer
 * (package {@code dev.quiver.distributed.explain}) is available.
 */
final class DistributedExplain {
    private DistributedExplain() {}

    static String render(DistributedPlan plan, Optional<FinalPlan> executed, SessionSettings.ExplainFormat format) {
        return format == SessionSettings.ExplainFormat.DOT ? dot(plan, executed) : text(plan, executed);
    }

    /** One box per stage (task count, partitions, hint; terminal task states once executed), an edge per boundary. */
    static String dot(DistributedPlan plan, Optional<FinalPlan> executed) {
        StringBuilder dot = new StringBuilder("digraph distributed_plan {\n  rankdir=BT;\n  node [shape=box, fontname=\"monospace\"];\n");
        for (Stage stage : plan.stages()) {
            StringBuilder label = new StringBuilder("Stage " + stage.stageId() + (stage.isHead() ? " (head)" : "") + "\\n" + stage.taskCount()
                    + " tasks × " + stage.partitionsPerTask() + " partitions\\n" + stage.taskCountHint());
            executed.ifPresent(done -> done.reportsOf(stage.stageId()).forEach(r -> label.append("\\ntask ").append(r.taskId().taskIndex())
                    .append(": ").append(r.state()).append(" on ").append(r.worker())));
            dot.append("  s").append(stage.stageId()).append(" [label=\"").append(label.toString().replace("\"", "'")).append("\"];\n");
            stage.output().ifPresent(out -> dot.append("  s").append(stage.stageId()).append(" -> s").append(out.consumerStageId())
                    .append(" [label=\"").append(out.kind()).append("\"];\n"));
        }
        return dot.append("}\n").toString();
    }

    static String text(DistributedPlan plan, Optional<FinalPlan> executed) {
        StringBuilder text = new StringBuilder();
        for (int i = plan.stages().size() - 1; i >= 0; i--) {
            Stage stage = plan.stages().get(i);
            text.append("Stage ").append(stage.stageId()).append(stage.isHead() ? " (head, on the coordinator)" : "")
                    .append(": ").append(stage.taskCount()).append(stage.taskCount() == 1 ? " task" : " tasks")
                    .append(" × ").append(stage.partitionsPerTask()).append(" partitions, ").append(stage.taskCountHint());
            stage.output().ifPresent(out -> text.append(", output ").append(out.kind()).append(" to stage ").append(out.consumerStageId()));
            text.append('\n');
            for (String line : PlanDisplay.indent(stage.plan()).split("\n")) {
                text.append("  ").append(line).append('\n');
            }
            executed.ifPresent(done -> appendTasks(text, stage, done));
        }
        return text.toString();
    }

    private static void appendTasks(StringBuilder text, Stage stage, FinalPlan done) {
        if (stage.isHead()) {
            text.append("  head: ").append(rootSummary(done.headMetrics())).append('\n');
            return;
        }
        for (TaskReport report : done.reportsOf(stage.stageId())) {
            text.append("  task ").append(report.taskId().taskIndex()).append(": ").append(report.state()).append(" on ").append(report.worker())
                    .append(", ").append(rootSummary(report.metrics()));
            report.error().ifPresent(error -> text.append(", error=").append(error.code()).append(": ").append(error.message()));
            text.append('\n');
        }
    }

    private static String rootSummary(List<OperatorMetricsSnapshot> metrics) {
        if (metrics.isEmpty()) {
            return "no metrics";
        }
        OperatorMetricsSnapshot root = metrics.get(0);
        return "output_rows=" + root.outputRows() + ", output_bytes=" + root.outputBytes() + ", elapsed_compute=" + root.elapsedComputeNanos() / 1_000_000 + "ms";
    }
}
