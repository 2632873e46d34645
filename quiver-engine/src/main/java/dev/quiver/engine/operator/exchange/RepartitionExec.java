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
 * Redistributes rows into {@code partitioning}'s partitions: {@link Partitioning.Hash} by the
 * engine's seeded partition hash, {@link Partitioning.RoundRobin} batch by batch. A thread of the
 * task's executor drains each input partition; output partitions are read concurrently.
 */
public final class RepartitionExec extends AbstractExecutionPlan {
    private final ExecutionPlan input;
    private final Partitioning partitioning;

    public RepartitionExec(ExecutionPlan input, Partitioning partitioning) {
        this.input = requireNonNull(input, "input is null");
        this.partitioning = requireNonNull(partitioning, "partitioning is null");
        if (!(partitioning instanceof Partitioning.Hash || partitioning instanceof Partitioning.RoundRobin)) {
            throw new IllegalArgumentException("RepartitionExec supports hash and round-robin partitioning, not " + partitioning);
        }
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
        return partitioning;
    }

    @Override
    public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
        return new RepartitionExec(children.get(0), partitioning);
    }

    @Override
    public String displayLine() {
        return "RepartitionExec: partitioning=" + partitioning + ", input_partitions=" + input.outputPartitioning().partitionCount();
    }

    @Override
    public String name() {
        return "RepartitionExec";
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        checkPartition(partition);
        throw new UnsupportedOperationException("not implemented yet: RepartitionExec");
    }
}
