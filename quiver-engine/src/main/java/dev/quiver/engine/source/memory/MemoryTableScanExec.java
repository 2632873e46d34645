package dev.quiver.engine.source.memory;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.execution.AbstractExecutionPlan;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.MeteredBatchStream;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.execution.PlanChecks;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.stats.Estimate;
import dev.quiver.engine.stats.Statistics;
import java.util.List;
import java.util.OptionalInt;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Scans batches of an {@link InMemoryTable}: each partition reads its list of
 * {@link MemoryChunk}s in order, one output batch per chunk (shared with the table without a
 * copy in this process; read from IPC bytes on a worker).
 */
public final class MemoryTableScanExec extends AbstractExecutionPlan {
    private final String table;
    private final Schema schema;
    private final List<List<MemoryChunk>> partitions;

    /**
     * @param schema the scanned columns, which every chunk holds in this order
     * @param partitions the chunks of each output partition (a partition may have none)
     */
    public MemoryTableScanExec(String table, Schema schema, List<List<MemoryChunk>> partitions) {
        this.table = requireNonNull(table, "table is null");
        this.schema = requireNonNull(schema, "schema is null");
        this.partitions = requireNonNull(partitions, "partitions is null").stream().map(List::copyOf).toList();
        PlanChecks.checkArgument(!partitions.isEmpty(), "MemoryTableScanExec", "needs at least one partition");
    }

    public String table() {
        return table;
    }

    public List<List<MemoryChunk>> partitions() {
        return partitions;
    }

    @Override
    public String name() {
        return "MemoryTableScanExec";
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
        PlanChecks.checkArgument(children.isEmpty(), name(), "is a leaf; got %s children", children.size());
        return this;
    }

    @Override
    public Statistics partitionStatistics(OptionalInt partition) {
        List<MemoryChunk> chunks = partition.isPresent() ? partitions.get(partition.getAsInt())
                : partitions.stream().flatMap(List::stream).toList();
        long rows = chunks.stream().mapToLong(MemoryChunk::rowCount).sum();
        long bytes = chunks.stream().mapToLong(MemoryChunk::bytes).sum();
        return new Statistics(Estimate.exact(rows), Estimate.inexact(bytes), Statistics.unknown(schema).columns());
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        checkPartition(partition);
        List<MemoryChunk> chunks = partitions.get(partition);
        BatchStream stream = new BatchStream() {
            private int next;

            @Override
            public Schema schema() {
                return schema;
            }

            @Override
            public VectorSchemaRoot next() {
                return next < chunks.size() ? chunks.get(next++).open(schema, context.allocator()) : null;
            }

            @Override
            public void close() {
                next = chunks.size();
            }
        };
        return new MeteredBatchStream(stream, metrics().partition(partition), context);
    }

    @Override
    public String displayLine() {
        long rows = partitions.stream().flatMap(List::stream).mapToLong(MemoryChunk::rowCount).sum();
        long batches = partitions.stream().mapToLong(List::size).sum();
        return "MemoryTableScanExec: table=" + table + ", partitions=" + partitions.size() + ", batches=" + batches + ", rows=" + rows;
    }
}
