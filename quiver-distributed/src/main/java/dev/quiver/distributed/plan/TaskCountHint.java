package dev.quiver.distributed.plan;

import static java.util.Objects.requireNonNull;

/**
 * How many tasks a node, source, handler or setting wants for its stage (DESIGN §4), with the
 * origin that gave it, so that plans and errors can say why a stage has its task count.
 * {@link Desired} is advisory (merging takes the maximum, after clamping each to the task limit);
 * {@link Exact} is a requirement (it overrides every Desired; two different Exacts in one stage, or
 * an Exact above the limit, fail the query naming the origins).
 */
public sealed interface TaskCountHint {
    int taskCount();

    /** Who asked, e.g. {@code ParquetScanExec(lineitem): 12 row groups, 96 MiB} or {@code setting distributed.max_tasks_per_stage}. */
    String origin();

    static Desired desired(int taskCount, String origin) {
        return new Desired(taskCount, origin);
    }

    static Exact exact(int taskCount, String origin) {
        return new Exact(taskCount, origin);
    }

    record Desired(int taskCount, String origin) implements TaskCountHint {
        public Desired {
            requireNonNull(origin, "origin is null");
            checkCount(taskCount);
        }

        @Override
        public String toString() {
            return "Desired(" + taskCount + ") from " + origin;
        }
    }

    record Exact(int taskCount, String origin) implements TaskCountHint {
        public Exact {
            requireNonNull(origin, "origin is null");
            checkCount(taskCount);
        }

        @Override
        public String toString() {
            return "Exact(" + taskCount + ") from " + origin;
        }
    }

    private static void checkCount(int taskCount) {
        if (taskCount < 1) {
            throw new IllegalArgumentException("a task count must be at least 1: " + taskCount);
        }
    }
}
