package dev.quiver.engine.source.memory;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.batch.Batches;
import dev.quiver.engine.execution.AbstractExecutionPlan;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.MeteredBatchStream;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.execution.PlanChecks;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.stats.Estimate;
import dev.quiver.engine.stats.Statistics;
import java.util.Collections;
import java.util.List;
import java.util.OptionalInt;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Scans constant rows held in the plan, one list of rows per partition. Meant for tests and
 * small inline data; each partition is built into batches of the task's batch size when executed.
 */
public final class MemoryScanExec extends AbstractExecutionPlan {
    private final Schema schema;
    private final List<List<List<Object>>> partitions;

    public MemoryScanExec(Schema schema, List<List<List<Object>>> partitions) {
        this.schema = requireNonNull(schema, "schema is null");
        this.partitions = List.copyOf(requireNonNull(partitions, "partitions is null"));
        PlanChecks.checkArgument(!partitions.isEmpty(), "MemoryScanExec", "needs at least one partition");
    }

    public List<List<List<Object>>> partitions() {
        return partitions;
    }

    @Override
    public String name() {
        return "MemoryScanExec";
    }

    @Override
    public Schema schema() {
        return schema;
    }

    @Override
    public List<ExecutionPlan> children() {
        return List.of();
    }

    @Override
    public Partitioning outputPartitioning() {
        return new Partitioning.Unknown(partitions.size());
    }

    @Override
    public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
        return this;
    }

    @Override
    public Statistics partitionStatistics(OptionalInt partition) {
        long rows = partition.isPresent() ? partitions.get(partition.getAsInt()).size()
                : partitions.stream().mapToLong(List::size).sum();
        Statistics unknown = Statistics.unknown(schema);
        return new Statistics(Estimate.exact(rows), Estimate.absent(), unknown.columns());
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        checkPartition(partition);
        List<List<Object>> rows = partitions.get(partition);
        BatchStream stream = new BatchStream() {
            private int offset;

            @Override
            public Schema schema() {
                return schema;
            }

            @Override
            public VectorSchemaRoot next() {
                if (offset >= rows.size()) {
                    return null;
                }
                int end = Math.min(rows.size(), offset + context.batchSize());
                VectorSchemaRoot batch = Batches.fromRows(schema, rows.subList(offset, end), context.allocator());
                offset = end;
                return batch;
            }

            @Override
            public void close() {
                offset = rows.size();
            }
        };
        return new MeteredBatchStream(stream, metrics().partition(partition), context);
    }

    @Override
    public String displayLine() {
        return "MemoryScanExec: partitions=" + partitions.size() + ", rows="
                + partitions.stream().mapToInt(List::size).sum();
    }

    /** A scan of {@code rows} split round-robin into {@code partitionCount} partitions. */
    public static MemoryScanExec split(Schema schema, List<List<Object>> rows, int partitionCount) {
        List<List<List<Object>>> parts = new java.util.ArrayList<>();
        for (int p = 0; p < partitionCount; p++) {
            parts.add(new java.util.ArrayList<>());
        }
        for (int i = 0; i < rows.size(); i++) {
            parts.get(i % partitionCount).add(rows.get(i));
        }
        return new MemoryScanExec(schema, parts.stream().map(Collections::unmodifiableList).toList());
    }
}
