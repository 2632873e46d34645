package dev.quiver.engine.operator.limit;

import dev.quiver.engine.execution.PlanChecks;
import java.util.OptionalLong;
import dev.quiver.engine.stats.Statistics;
import java.util.OptionalInt;
import static java.util.Objects.requireNonNull;

import dev.quiver.engine.execution.AbstractExecutionPlan;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.MeteredBatchStream;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.execution.TaskContext;
import java.util.List;
import org.apache.arrow.vector.types.pojo.Schema;

/** At most {@code fetch} rows from each input partition (below a coalesce and a global limit). */
public final class LocalLimitExec extends AbstractExecutionPlan {
    private final ExecutionPlan input;
    private final long fetch;

    public LocalLimitExec(ExecutionPlan input, long fetch) {
        this.input = requireNonNull(input, "input is null");
        this.fetch = fetch;
        PlanChecks.checkArgument(fetch >= 0, "LocalLimitExec", "fetch must not be negative: %s", fetch);
    }

    public long fetch() {
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
        return input.outputPartitioning();
    }

    @Override
    public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
        return new LocalLimitExec(children.get(0), fetch);
    }

    @Override
    public String displayLine() {
        return "LocalLimitExec: fetch=" + fetch;
    }

    @Override
    public String name() {
        return "LocalLimitExec";
    }

    @Override
    public Statistics partitionStatistics(OptionalInt partition) {
        if (partition.isPresent()) {
            return LimitStatistics.limited(input.partitionStatistics(partition), 0, OptionalLong.of(fetch));
        }
        long partitions = input.outputPartitioning().partitionCount();
        long bound = partitions > Long.MAX_VALUE / Math.max(fetch, 1) ? Long.MAX_VALUE : partitions * fetch;
        return LimitStatistics.limited(input.partitionStatistics(partition), 0, OptionalLong.of(bound));
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        checkPartition(partition);
        return new MeteredBatchStream(new LimitStream(input.execute(partition, context), context.allocator(), 0, fetch), metrics().partition(partition), context);
    }
}
