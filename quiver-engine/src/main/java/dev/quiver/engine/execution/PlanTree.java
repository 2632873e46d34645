package dev.quiver.engine.execution;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Walks and rewrites {@link ExecutionPlan} trees: the one place that recurses over
 * {@link ExecutionPlan#children()}, so that planner passes and checks say what they look for
 * instead of how to find it. Every walk is pre-order (a node before its children, children left
 * to right), the order {@code PlanDisplay} prints and metrics are reported in. Stateless.
 */
public final class PlanTree {
    private PlanTree() {}

    /** Every node of {@code root}, in pre-order. */
    public static List<ExecutionPlan> nodes(ExecutionPlan root) {
        List<ExecutionPlan> nodes = new ArrayList<>();
        collect(requireNonNull(root, "root is null"), node -> true, nodes);
        return nodes;
    }

    /** The nodes of {@code root} that are {@code type}s, in pre-order. */
    public static <T> List<T> nodesOf(ExecutionPlan root, Class<T> type) {
        requireNonNull(type, "type is null");
        List<ExecutionPlan> found = new ArrayList<>();
        collect(requireNonNull(root, "root is null"), type::isInstance, found);
        return found.stream().map(type::cast).toList();
    }

    /** The leaves of {@code root} (nodes without children), left to right. */
    public static List<ExecutionPlan> leaves(ExecutionPlan root) {
        List<ExecutionPlan> leaves = new ArrayList<>();
        collect(requireNonNull(root, "root is null"), node -> node.children().isEmpty(), leaves);
        return leaves;
    }

    /** Whether a node of {@code root} matches {@code test}. */
    public static boolean anyMatch(ExecutionPlan root, Predicate<ExecutionPlan> test) {
        return first(root, test).isPresent();
    }

    /** The first node of {@code root} in pre-order that matches {@code test}. */
    public static Optional<ExecutionPlan> first(ExecutionPlan root, Predicate<ExecutionPlan> test) {
        requireNonNull(test, "test is null");
        if (test.test(requireNonNull(root, "root is null"))) {
            return Optional.of(root);
        }
        for (ExecutionPlan child : root.children()) {
            Optional<ExecutionPlan> found = first(child, test);
            if (found.isPresent()) {
                return found;
            }
        }
        return Optional.empty();
    }

    /**
     * {@code root} rewritten top-down: {@code rule} sees each node before its children; when it
     * returns another node, that node takes the place of the subtree and is not descended into;
     * when it returns the node itself, its children are rewritten. Ancestors of a change are
     * rebuilt with {@link ExecutionPlan#withNewChildren}; a subtree without a change is returned as
     * it is (the same instance), so callers can tell whether anything changed.
     */
    public static ExecutionPlan rewrite(ExecutionPlan root, Function<ExecutionPlan, ExecutionPlan> rule) {
        requireNonNull(root, "root is null");
        requireNonNull(rule, "rule is null");
        ExecutionPlan replaced = requireNonNull(rule.apply(root), "rule returned no plan");
        if (replaced != root) {
            return replaced;
        }
        List<ExecutionPlan> children = root.children();
        if (children.isEmpty()) {
            return root;
        }
        List<ExecutionPlan> rewritten = new ArrayList<>(children.size());
        boolean changed = false;
        for (ExecutionPlan child : children) {
            ExecutionPlan next = rewrite(child, rule);
            changed |= next != child;
            rewritten.add(next);
        }
        return changed ? root.withNewChildren(rewritten) : root;
    }

    /**
     * {@code root} rewritten bottom-up: each node's children are rewritten first, then {@code rule}
     * sees the node (rebuilt over the rewritten children if any changed) and may replace it. A
     * subtree without a change is returned as it is (the same instance).
     */
    public static ExecutionPlan rewriteBottomUp(ExecutionPlan root, Function<ExecutionPlan, ExecutionPlan> rule) {
        requireNonNull(root, "root is null");
        requireNonNull(rule, "rule is null");
        List<ExecutionPlan> children = root.children();
        ExecutionPlan node = root;
        if (!children.isEmpty()) {
            List<ExecutionPlan> rewritten = new ArrayList<>(children.size());
            boolean changed = false;
            for (ExecutionPlan child : children) {
                ExecutionPlan next = rewriteBottomUp(child, rule);
                changed |= next != child;
                rewritten.add(next);
            }
            node = changed ? root.withNewChildren(rewritten) : root;
        }
        return requireNonNull(rule.apply(node), "rule returned no plan");
    }

    private static void collect(ExecutionPlan node, Predicate<ExecutionPlan> keep, List<ExecutionPlan> out) {
        if (keep.test(node)) {
            out.add(node);
        }
        for (ExecutionPlan child : node.children()) {
            collect(child, keep, out);
        }
    }
}
