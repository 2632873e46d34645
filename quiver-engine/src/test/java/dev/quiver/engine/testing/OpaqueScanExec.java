package dev.quiver.engine.testing;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.execution.AbstractExecutionPlan;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.execution.TaskContext;
import java.util.List;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A source leaf of a node type of its own over another plan's partitions: no distributed
 * {@code TaskEstimator} knows it, so the planner cannot split it (it runs as one task).
 */
public final class OpaqueScanExec extends AbstractExecutionPlan {
    private final ExecutionPlan delegate;

    public OpaqueScanExec(ExecutionPlan delegate) {
        this.delegate = requireNonNull(delegate, "delegate is null");
    }

    @Override
    public String name() {
        return "OpaqueScanExec";
    }

    @Override
    public Schema schema() {
        return delegate.schema();
    }

    @Override
    public List<ExecutionPlan> children() {
        return List.of();
    }

    @Override
    public Partitioning outputPartitioning() {
        return delegate.outputPartitioning();
    }

    @Override
    public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
        return this;
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        return delegate.execute(partition, context);
    }

    @Override
    public String displayLine() {
        return "OpaqueScanExec";
    }
}
