package dev.quiver.distributed.explain;

import dev.quiver.distributed.operator.StageInputExec;
import dev.quiver.distributed.plan.DistributedPlan;
import dev.quiver.distributed.plan.Stage;
import dev.quiver.engine.execution.ExecutionPlan;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The Graphviz form: one cluster per stage (its task count, partitions and hint in the label,
 * then AQE's decision lines when given, and task states when reports are given), one box per operator of task 0's plan, data flowing
 * upwards, and an edge labelled with the boundary's partition math from each producer stage's
 * top operator to the {@code StageInputExec} that reads it.
 */
final class DotRenderer {
    private final DistributedPlan plan;
    private final Optional<Map<Integer, StageMetrics>> metrics;
    private final Map<Integer, List<String>> notes;
    private final StringBuilder out = new StringBuilder();
    private final List<String> boundaryEdges = new ArrayList<>();

    /** @param notes extra lines per stage id, shown under its hint (AQE's decision and estimates, as in the text form) */
    DotRenderer(DistributedPlan plan, Optional<Map<Integer, StageMetrics>> metrics, Map<Integer, List<String>> notes) {
        this.plan = plan;
        this.metrics = metrics;
        this.notes = notes;
    }

    String render() {
        out.append("digraph distributed_plan {\n  rankdir=BT;\n  node [shape=box, fontname=\"Helvetica\", fontsize=10];\n");
        for (Stage stage : plan.stages()) {
            cluster(stage);
        }
        boundaryEdges.forEach(edge -> out.append(edge));
        out.append("}\n");
        return out.toString();
    }

    private void cluster(Stage stage) {
        List<String> label = new ArrayList<>();
        label.add("Stage " + stage.stageId() + (stage.isHead() ? " (head, coordinator)" : "") + ": " + TextRenderer.counts(stage));
        label.add(stage.taskCountHint().toString());
        label.addAll(notes.getOrDefault(stage.stageId(), List.of()));
        Optional<StageMetrics> stageMetrics = metrics.map(all -> all.get(stage.stageId()));
        stageMetrics.ifPresent(m -> label.addAll(m.taskLines()));
        out.append("  subgraph cluster_s").append(stage.stageId()).append(" {\n    label=\"").append(escape(String.join("\n", label)))
                .append("\";\n    labeljust=l;\n    style=rounded;\n");
        node(stage, stage.plan(), new int[] {0}, stageMetrics);
        out.append("  }\n");
    }

    /** Writes the node and its subtree; returns its id. */
    private String node(Stage stage, ExecutionPlan node, int[] index, Optional<StageMetrics> stageMetrics) {
        int nodeIndex = index[0]++;
        String id = "s" + stage.stageId() + "_n" + nodeIndex;
        String label = node.displayLine() + stageMetrics.flatMap(m -> m.operator(nodeIndex)).map(text -> "\n" + text).orElse("");
        out.append("    ").append(id).append(" [label=\"").append(escape(label)).append("\"];\n");
        if (node instanceof StageInputExec input) {
            Stage producer = plan.stage(input.producerStageId());
            boundaryEdges.add("  s" + producer.stageId() + "_n0 -> " + id + " [style=bold, label=\"" + escape(BoundaryMath.describe(plan, producer)) + "\"];\n");
        }
        for (ExecutionPlan child : node.children()) {
            String childId = node(stage, child, index, stageMetrics);
            out.append("    ").append(childId).append(" -> ").append(id).append(";\n");
        }
        return id;
    }

    private static String escape(String text) {
        return text.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }
}
