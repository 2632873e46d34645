package dev.quiver.distributed.explain;

import dev.quiver.distributed.operator.StageInputExec;
import dev.quiver.distributed.plan.DistributedPlan;
import dev.quiver.distributed.plan.Stage;
import dev.quiver.engine.execution.ExecutionPlan;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The text form: the head stage first, each input stage drawn as a block nested under the
 * {@code StageInputExec} that reads it.
 */
final class TextRenderer {
    private final DistributedPlan plan;
    private final Optional<Map<Integer, StageMetrics>> metrics;
    private final Map<Integer, List<String>> notes;
    private final StringBuilder out = new StringBuilder();

    /** @param notes extra lines per stage id, shown under its task count (AQE's decision and estimates) */
    TextRenderer(DistributedPlan plan, Optional<Map<Integer, StageMetrics>> metrics, Map<Integer, List<String>> notes) {
        this.plan = plan;
        this.metrics = metrics;
        this.notes = notes;
    }

    String render() {
        return render(Optional.empty());
    }

    /** With a first line saying why the query failed, when it did. */
    String render(Optional<String> failure) {
        return render(failure, List.of());
    }

    /** With the failure line, then one {@code warning:} line each. */
    String render(Optional<String> failure, List<String> warnings) {
        failure.ifPresent(reason -> out.append("query failed: ").append(reason).append('\n'));
        warnings.forEach(warning -> out.append("warning: ").append(warning).append('\n'));
        metrics.map(all -> StageMetrics.Exchanged.of(plan, all)).ifPresent(exchanged -> out.append("exchanged between stages: rows=")
                .append(exchanged.rows()).append(", bytes=").append(StageMetrics.bytes(exchanged.bytes())).append(" (uncompressed, a broadcast counted once)\n"));
        stage(plan.headStage(), "");
        return out.toString();
    }

    private void stage(Stage stage, String margin) {
        String bar = margin + "| ";
        out.append(margin).append("+- Stage ").append(stage.stageId()).append(stage.isHead() ? " (head, on the coordinator)" : "").append(": ")
                .append(counts(stage)).append('\n');
        out.append(bar).append("task count: ").append(stage.taskCountHint()).append('\n');
        notes.getOrDefault(stage.stageId(), List.of()).forEach(line -> out.append(bar).append(line).append('\n'));
        if (!stage.isHead()) {
            out.append(bar).append("output: ").append(BoundaryMath.describe(plan, stage)).append('\n');
        }
        Optional<StageMetrics> stageMetrics = metrics.map(all -> all.get(stage.stageId()));
        BoundaryMath.estimate(plan, stage).ifPresent(estimate -> out.append(bar).append(estimate)
                .append(stageMetrics.map(m -> "; " + m.actualOutput()).orElse("")).append('\n'));
        stageMetrics.flatMap(StageMetrics::head)
                .ifPresent(head -> out.append(bar).append("producer head: metrics=[").append(head).append("]\n"));
        if (stageMetrics.isPresent()) {
            List<String> lines = stageMetrics.get().taskLines();
            if (lines.isEmpty()) {
                out.append(bar).append("no task reports\n");
            }
            lines.forEach(line -> out.append(bar).append(line).append('\n'));
        }
        if (stage.taskCount() > 1) {
            out.append(bar).append(metrics.isPresent() ? "plan of task 0, metrics summed over the tasks:\n" : "plan of task 0:\n");
        }
        node(stage.plan(), 0, new int[] {0}, stageMetrics, bar);
        out.append(margin).append("+-\n");
    }

    /** {@code 3 tasks × 2 partitions}. */
    static String counts(Stage stage) {
        return stage.taskCount() + (stage.taskCount() == 1 ? " task" : " tasks") + " × " + stage.partitionsPerTask()
                + (stage.partitionsPerTask() == 1 ? " partition" : " partitions");
    }

    private void node(ExecutionPlan node, int depth, int[] index, Optional<StageMetrics> stageMetrics, String bar) {
        int nodeIndex = index[0]++;
        String indent = bar + "  ".repeat(depth);
        out.append(indent).append(node.displayLine());
        stageMetrics.flatMap(m -> m.operator(nodeIndex)).ifPresent(text -> out.append(", metrics=[").append(text).append(']'));
        out.append('\n');
        if (node instanceof StageInputExec input) {
            stage(plan.stage(input.producerStageId()), indent + "  ");
        }
        for (ExecutionPlan child : node.children()) {
            node(child, depth + 1, index, stageMetrics, bar);
        }
    }
}
