package dev.quiver.engine.execution;

/** Renders a plan as indented text, one line per node, optionally with each node's metrics. */
public final class PlanDisplay {
    private PlanDisplay() {}

    public static String indent(ExecutionPlan plan) {
        StringBuilder text = new StringBuilder();
        render(plan, 0, false, text);
        return text.toString();
    }

    /** Like {@link #indent} with each node's metrics ({@code EXPLAIN ANALYZE}). */
    public static String indentWithMetrics(ExecutionPlan plan) {
        StringBuilder text = new StringBuilder();
        render(plan, 0, true, text);
        return text.toString();
    }

    private static void render(ExecutionPlan plan, int depth, boolean metrics, StringBuilder text) {
        text.append("  ".repeat(depth)).append(plan.displayLine());
        if (metrics) {
            text.append(", metrics=[").append(plan.metrics().summary()).append("]");
        }
        text.append('\n');
        for (ExecutionPlan child : plan.children()) {
            render(child, depth + 1, metrics, text);
        }
    }
}
