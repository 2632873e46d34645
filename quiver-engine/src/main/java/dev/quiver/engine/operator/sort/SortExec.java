package dev.quiver.engine.operator.sort;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.execution.AbstractExecutionPlan;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.execution.TaskContext;
import java.util.OptionalLong;
import java.util.List;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Sorts by {@code keys}. With {@code fetch} it keeps only the first {@code fetch} rows (top-k, a
 * bounded heap). With {@code preservePartitioning} each partition is sorted on its own (a
 * {@link dev.quiver.engine.operator.exchange.SortPreservingMergeExec} merges them); otherwise the
 * input must have one partition.
 */
public final class SortExec extends AbstractExecutionPlan {
    private final ExecutionPlan input;
    private final List<SortKey> keys;
    private final OptionalLong fetch;
    private final boolean preservePartitioning;

    public SortExec(ExecutionPlan input, List<SortKey> keys, OptionalLong fetch, boolean preservePartitioning) {
        this.input = requireNonNull(input, "input is null");
        this.keys = List.copyOf(requireNonNull(keys, "keys is null"));
        this.fetch = requireNonNull(fetch, "fetch is null");
        this.preservePartitioning = preservePartitioning;
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("SortExec needs at least one key");
        }
        if (!preservePartitioning && input.outputPartitioning().partitionCount() != 1) {
            throw new IllegalArgumentException("SortExec without preservePartitioning needs a single-partition input");
        }
    }

    public List<SortKey> keys() {
        return keys;
    }

    public OptionalLong fetch() {
        return fetch;
    }

    public boolean preservePartitioning() {
        return preservePartitioning;
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
        return preservePartitioning ? new Partitioning.Unknown(input.outputPartitioning().partitionCount()) : Partitioning.single();
    }

    @Override
    public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
        return new SortExec(children.get(0), keys, fetch, preservePartitioning);
    }

    @Override
    public String displayLine() {
        return (fetch.isPresent() ? "SortExec: TopK(fetch=" + fetch.getAsLong() + "), [" : "SortExec: [")
                + keys.stream().map(SortKey::display).collect(java.util.stream.Collectors.joining(", ")) + "]"
                + (preservePartitioning ? ", preserve_partitioning=true" : "");
    }

    @Override
    public String name() {
        return "SortExec";
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        checkPartition(partition);
        throw new UnsupportedOperationException("not implemented yet: SortExec");
    }
}
