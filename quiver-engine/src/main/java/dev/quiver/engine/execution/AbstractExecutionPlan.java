package dev.quiver.engine.execution;

import dev.quiver.engine.metrics.OperatorMetrics;

/** Holds the per-node metrics every {@link ExecutionPlan} exposes. */
public abstract class AbstractExecutionPlan implements ExecutionPlan {
    private final OperatorMetrics metrics = new OperatorMetrics();

    @Override
    public final OperatorMetrics metrics() {
        return metrics;
    }

    /** Checks {@code 0 <= partition < partitionCount()}, the contract of {@link #execute}. */
    protected final void checkPartition(int partition) {
        int count = outputPartitioning().partitionCount();
        if (partition < 0 || partition >= count) {
            throw PlanChecks.planError(name(), "has %s partitions; asked for partition %s", count, partition);
        }
    }

    @Override
    public String toString() {
        return displayLine();
    }
}
