package dev.quiver.distributed.plan;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.ExecutionPlan;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@link TaskEstimator}s the planner consults, by leaf class: the built-in ones for every
 * built-in source (TPC-H, Parquet, Arrow IPC, CSV, in-memory, VALUES) and any added through the
 * {@link Builder} (an added estimator replaces a built-in one for the same class). Immutable.
 */
public final class TaskEstimators {
    private final Map<Class<?>, TaskEstimator<?>> estimators;

    private TaskEstimators(Map<Class<?>, TaskEstimator<?>> estimators) {
        this.estimators = Map.copyOf(estimators);
    }

    /** The built-in estimators only. */
    public static TaskEstimators builtin() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public Optional<TaskEstimator<?>> forLeaf(ExecutionPlan leaf) {
        return Optional.ofNullable(estimators.get(leaf.getClass()));
    }

    /** The leaf's hint; {@code Exact(1)} with the reason when no estimator knows the leaf. */
    public TaskCountHint taskCount(ExecutionPlan leaf, DistributedPlannerSettings settings) {
        return forLeaf(leaf).map(estimator -> hint(estimator, leaf, settings))
                .orElseGet(() -> TaskCountHint.exact(1, leaf.name() + " has no TaskEstimator (" + leaf.getClass().getName()
                        + "), so it runs as one task; register one with QuerySession.Builder.taskEstimator or a QuiverPlugin"));
    }

    /** The leaf's per-task variants, checked against the {@link TaskEstimator#scaleUpLeafNode} contract. */
    public List<ExecutionPlan> scaleUpLeafNode(ExecutionPlan leaf, int taskCount, int partitionsPerTask) {
        Optional<TaskEstimator<?>> estimator = forLeaf(leaf);
        if (estimator.isEmpty()) {
            if (taskCount != 1) {
                throw new QuiverException(ErrorCode.PLAN_ERROR, leaf.name() + " has no TaskEstimator and cannot run as " + taskCount + " tasks");
            }
            return List.of(leaf);
        }
        List<ExecutionPlan> variants = scale(estimator.get(), leaf, taskCount, partitionsPerTask);
        if (variants.size() != taskCount) {
            throw broken(estimator.get(), leaf, variants.size() + " variants for " + taskCount + " tasks");
        }
        for (ExecutionPlan variant : variants) {
            if (variant.outputPartitioning().partitionCount() != partitionsPerTask || !variant.schema().equals(leaf.schema())) {
                throw broken(estimator.get(), leaf, "a variant with " + variant.outputPartitioning().partitionCount() + " partitions (expected "
                        + partitionsPerTask + ") or another schema: " + variant.displayLine());
            }
        }
        return variants;
    }

    private static QuiverException broken(TaskEstimator<?> estimator, ExecutionPlan leaf, String problem) {
        return new QuiverException(ErrorCode.PLAN_ERROR, "TaskEstimator " + estimator.getClass().getName() + " scaled " + leaf.name() + " into " + problem);
    }

    @SuppressWarnings("unchecked")
    private static <T extends ExecutionPlan> TaskCountHint hint(TaskEstimator<T> estimator, ExecutionPlan leaf, DistributedPlannerSettings settings) {
        return requireNonNull(estimator.taskCount((T) leaf, settings), "task estimator gave no hint");
    }

    @SuppressWarnings("unchecked")
    private static <T extends ExecutionPlan> List<ExecutionPlan> scale(TaskEstimator<T> estimator, ExecutionPlan leaf, int taskCount,
            int partitionsPerTask) {
        return List.copyOf(estimator.scaleUpLeafNode((T) leaf, taskCount, partitionsPerTask));
    }

    /** Adds estimators for custom leaves (or replaces a built-in one). */
    public static final class Builder {
        private final Map<Class<?>, TaskEstimator<?>> estimators = new LinkedHashMap<>();

        private Builder() {
            BuiltinTaskEstimators.all().forEach(e -> estimators.put(e.leafClass(), e));
        }

        public Builder add(TaskEstimator<?> estimator) {
            requireNonNull(estimator, "estimator is null");
            estimators.put(requireNonNull(estimator.leafClass(), "leafClass is null"), estimator);
            return this;
        }

        public TaskEstimators build() {
            return new TaskEstimators(estimators);
        }
    }
}
