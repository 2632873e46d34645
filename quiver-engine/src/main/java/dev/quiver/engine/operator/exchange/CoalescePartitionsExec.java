package dev.quiver.engine.operator.exchange;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.execution.AbstractExecutionPlan;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.execution.TaskContext;

import java.util.List;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Merges all input partitions into one, in no particular order: a thread of the task's executor
 * drains each input partition into a bounded queue.
 */
public final class CoalescePartitionsExec extends AbstractExecutionPlan {
    private final ExecutionPlan input;

    public CoalescePartitionsExec(ExecutionPlan input) {
        this.input = requireNonNull(input, "input is null");
    }

    public ExecutionPlan input() {
        return input;
    }

    @Override
    public Schema schema() {
        return input.schema();
    }

    @Override
    public List<ExecutionPlan> children() {
        return List.of(input);
    }

    @Override
    public Partitioning outputPartitioning() {
        return Partitioning.single();
    }

    @Override
    public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
        return new CoalescePartitionsExec(children.get(0));
    }

    @Override
    public String displayLine() {
        return "CoalescePartitionsExec";
    }

    @Override
    public String name() {
        return "CoalescePartitionsExec";
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        checkPartition(partition);
        throw new UnsupportedOperationException("not implemented yet: CoalescePartitionsExec");
    }
}
