package dev.quiver.engine.operator.limit;

import dev.quiver.engine.execution.PlanChecks;
import dev.quiver.engine.stats.Statistics;
import java.util.OptionalInt;
import static java.util.Objects.requireNonNull;

import dev.quiver.engine.execution.AbstractExecutionPlan;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.MeteredBatchStream;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.execution.TaskContext;
import java.util.OptionalLong;
import java.util.List;
import org.apache.arrow.vector.types.pojo.Schema;

/** OFFSET {@code skip} / LIMIT {@code fetch} over a single-partition input. */
public final class GlobalLimitExec extends AbstractExecutionPlan {
    private final ExecutionPlan input;
    private final long skip;
    private final OptionalLong fetch;

    public GlobalLimitExec(ExecutionPlan input, long skip, OptionalLong fetch) {
        this.input = requireNonNull(input, "input is null");
        this.skip = skip;
        this.fetch = requireNonNull(fetch, "fetch is null");
        PlanChecks.checkArgument(skip >= 0, "GlobalLimitExec", "skip must not be negative: %s", skip);
        PlanChecks.checkArgument(input.outputPartitioning().partitionCount() == 1, "GlobalLimitExec", "needs a single-partition input, not %s partitions",
                input.outputPartitioning().partitionCount());
    }

    public long skip() {
        return skip;
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
        return new GlobalLimitExec(children.get(0), skip, fetch);
    }

    @Override
    public String displayLine() {
        return "GlobalLimitExec: skip=" + skip + ", fetch=" + (fetch.isPresent() ? fetch.getAsLong() : "None");
    }

    @Override
    public String name() {
        return "GlobalLimitExec";
    }

    @Override
    public Statistics partitionStatistics(OptionalInt partition) {
        return LimitStatistics.limited(input.partitionStatistics(OptionalInt.empty()), skip, fetch);
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        checkPartition(partition);
        return new MeteredBatchStream(new LimitStream(input.execute(0, context), context.allocator(), skip, fetch.isPresent() ? fetch.getAsLong() : -1), metrics().partition(partition), context);
    }
}
