package dev.quiver.engine.execution;

/**
 * Renders a single-node plan as a Graphviz DOT graph: one box per node labelled with its display
 * line (and its metrics for {@code EXPLAIN ANALYZE}), data flowing upwards from the scans. The
 * distributed planner has its own form with one cluster per stage.
 */
public final class PlanDot {
    private PlanDot() {}

    public static String dot(ExecutionPlan plan) {
        return render(plan, false);
    }

    /** Like {@link #dot} with each node's metrics ({@code EXPLAIN ANALYZE}). */
    public static String dotWithMetrics(ExecutionPlan plan) {
        return render(plan, true);
    }

    private static String render(ExecutionPlan plan, boolean metrics) {
        StringBuilder out = new StringBuilder("digraph plan {\n  rankdir=BT;\n  node [shape=box, fontname=\"Helvetica\", fontsize=10];\n");
        node(plan, metrics, new int[] {0}, out);
        return out.append("}\n").toString();
    }

    /** Writes the node and its subtree; returns its id. */
    private static String node(ExecutionPlan plan, boolean metrics, int[] index, StringBuilder out) {
        String id = "n" + index[0]++;
        String label = plan.displayLine() + (metrics ? "\n" + plan.metrics().summary() : "");
        out.append("  ").append(id).append(" [label=\"").append(escape(label)).append("\"];\n");
        for (ExecutionPlan child : plan.children()) {
            String childId = node(child, metrics, index, out);
            out.append("  ").append(childId).append(" -> ").append(id).append(";\n");
        }
        return id;
    }

    /** A DOT string literal's content: backslashes and quotes escaped, line breaks as {@code \n}. */
    static String escape(String text) {
        return text.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }
}
