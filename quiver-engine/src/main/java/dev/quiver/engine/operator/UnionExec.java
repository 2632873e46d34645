package dev.quiver.engine.operator;

import dev.quiver.engine.execution.PlanChecks;
import dev.quiver.engine.stats.Estimate;
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
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/** UNION ALL: the partitions of every input, one after another (partition count is the sum). */
public final class UnionExec extends AbstractExecutionPlan {
    private final List<ExecutionPlan> inputs;

    public UnionExec(List<ExecutionPlan> inputs) {
        this.inputs = List.copyOf(requireNonNull(inputs, "inputs is null"));
        PlanChecks.checkArgument(!inputs.isEmpty(), "UnionExec", "needs at least one input");
    }

    @Override
    public Schema schema() {
        return inputs.get(0).schema();
    }

    @Override
    public List<ExecutionPlan> children() {
        return inputs;
    }

    @Override
    public Partitioning outputPartitioning() {
        return new Partitioning.Unknown(inputs.stream().mapToInt(i -> i.outputPartitioning().partitionCount()).sum());
    }

    @Override
    public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
        return new UnionExec(children);
    }

    @Override
    public String displayLine() {
        return "UnionExec";
    }

    @Override
    public String name() {
        return "UnionExec";
    }

    @Override
    public Statistics partitionStatistics(OptionalInt partition) {
        if (partition.isPresent()) {
            int local = partition.getAsInt();
            for (ExecutionPlan child : inputs) {
                int count = child.outputPartitioning().partitionCount();
                if (local < count) {
                    return child.partitionStatistics(OptionalInt.of(local));
                }
                local -= count;
            }
        }
        Estimate rows = Estimate.exact(0);
        Estimate bytes = Estimate.exact(0);
        for (ExecutionPlan child : inputs) {
            Statistics statistics = child.partitionStatistics(OptionalInt.empty());
            rows = rows.plus(statistics.rowCount());
            bytes = bytes.plus(statistics.totalBytes());
        }
        return new Statistics(rows, bytes, Statistics.unknown(schema()).columns());
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        checkPartition(partition);
        int local = partition;
        for (ExecutionPlan child : inputs) {
            int count = child.outputPartitioning().partitionCount();
            if (local < count) {
                return new MeteredBatchStream(new RenamingStream(child.execute(local, context), schema()), metrics().partition(partition), context);
            }
            local -= count;
        }
        throw new IllegalStateException("partition " + partition + " not found in the union's inputs");
    }

    /** Presents an input's batches under the union's schema (the first input's column names). */
    private record RenamingStream(BatchStream input, Schema schema) implements BatchStream {
        @Override
        public VectorSchemaRoot next() {
            VectorSchemaRoot batch = input.next();
            if (batch == null || batch.getSchema().equals(schema)) {
                return batch;
            }
            return new VectorSchemaRoot(schema.getFields(), batch.getFieldVectors(), batch.getRowCount());
        }

        @Override
        public void close() {
            input.close();
        }
    }
}
