package dev.quiver.engine.operator.exchange;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.execution.AbstractExecutionPlan;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.operator.sort.SortKey;
import java.util.OptionalLong;
import java.util.List;
import org.apache.arrow.vector.types.pojo.Schema;

/** Merges input partitions, each sorted by {@code keys}, into one sorted partition; optionally stops after {@code fetch} rows. */
public final class SortPreservingMergeExec extends AbstractExecutionPlan {
    private final ExecutionPlan input;
    private final List<SortKey> keys;
    private final OptionalLong fetch;

    public SortPreservingMergeExec(ExecutionPlan input, List<SortKey> keys, OptionalLong fetch) {
        this.input = requireNonNull(input, "input is null");
        this.keys = List.copyOf(requireNonNull(keys, "keys is null"));
        this.fetch = requireNonNull(fetch, "fetch is null");
    }

    public List<SortKey> keys() {
        return keys;
    }

    public OptionalLong fetch() {
        return fetch;
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
        return new SortPreservingMergeExec(children.get(0), keys, fetch);
    }

    @Override
    public String displayLine() {
        return "SortPreservingMergeExec: [" + keys.stream().map(SortKey::display).collect(java.util.stream.Collectors.joining(", ")) + "]"
                + (fetch.isPresent() ? ", fetch=" + fetch.getAsLong() : "");
    }

    @Override
    public String name() {
        return "SortPreservingMergeExec";
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        checkPartition(partition);
        throw new UnsupportedOperationException("not implemented yet: SortPreservingMergeExec");
    }
}
