package dev.quiver.engine.source.arrow;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.AbstractExecutionPlan;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.MeteredBatchStream;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.spi.Projections;
import dev.quiver.engine.spi.TableScanExec;
import dev.quiver.engine.stats.Estimate;
import dev.quiver.engine.stats.Statistics;
import java.util.List;
import java.util.OptionalInt;
import java.util.stream.Collectors;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Leaf that reads the record batches of Arrow IPC files. Each output partition is a list of whole
 * record batches, chosen and balanced by {@link ArrowTable#scan}; a partition emits each batch as
 * the file holds it, keeping only the projected columns.
 */
public final class ArrowScanExec extends AbstractExecutionPlan implements TableScanExec {
    private final String tableName;
    private final Schema tableSchema;
    private final Schema schema;
    private final List<Integer> projection;
    private final List<List<ArrowBlockSplit>> partitions;
    private final int fileCount;

    /**
     * A scan of {@code partitions} (each a list of whole record batches) of a table of
     * {@code fileCount} files. Public so that plan codecs and the distributed planner can rebuild it.
     */
    public ArrowScanExec(String tableName, Schema tableSchema, List<Integer> projection, List<List<ArrowBlockSplit>> partitions, int fileCount) {
        this.tableName = requireNonNull(tableName, "tableName is null");
        this.tableSchema = requireNonNull(tableSchema, "tableSchema is null");
        this.projection = List.copyOf(requireNonNull(projection, "projection is null"));
        this.partitions = requireNonNull(partitions, "partitions is null").stream().map(List::copyOf).toList();
        this.fileCount = fileCount;
        if (this.partitions.isEmpty()) {
            throw new QuiverException(ErrorCode.PLAN_ERROR, "ArrowScanExec needs at least one partition");
        }
        this.schema = Projections.project("Arrow", tableName, tableSchema, this.projection);
    }

    @Override
    public String tableName() {
        return tableName;
    }

    /** This scan reading other record batches (a task's share), with the same table and projection. */
    public ArrowScanExec withPartitions(List<List<ArrowBlockSplit>> partitions) {
        return new ArrowScanExec(tableName, tableSchema, projection, partitions, fileCount);
    }

    public Schema tableSchema() {
        return tableSchema;
    }

    /** The record batches of each partition. */
    public List<List<ArrowBlockSplit>> partitions() {
        return partitions;
    }

    public int fileCount() {
        return fileCount;
    }

    /** The table's column indexes this scan produces, in order. */
    public List<Integer> projection() {
        return projection;
    }

    /** Record batches this scan reads over all partitions. */
    public int batchesScanned() {
        return partitions.stream().mapToInt(List::size).sum();
    }

    @Override
    public String name() {
        return "ArrowScanExec";
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
        if (!children.isEmpty()) {
            throw new QuiverException(ErrorCode.PLAN_ERROR, "ArrowScanExec is a leaf; got " + children.size() + " children");
        }
        return this;
    }

    @Override
    public Statistics partitionStatistics(OptionalInt partition) {
        List<ArrowBlockSplit> splits;
        if (partition.isPresent()) {
            checkPartition(partition.getAsInt());
            splits = partitions.get(partition.getAsInt());
        } else {
            splits = partitions.stream().flatMap(List::stream).toList();
        }
        long rows = splits.stream().mapToLong(ArrowBlockSplit::rowCount).sum();
        long body = splits.stream().mapToLong(ArrowBlockSplit::bodyBytes).sum();
        // the file has no per-column sizes: share the body out evenly among the columns
        long bytes = tableSchema.getFields().isEmpty() ? 0 : body * projection.size() / tableSchema.getFields().size();
        return new Statistics(Estimate.exact(rows), Estimate.inexact(bytes), ArrowBlockSplit.columns(splits, projection));
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        checkPartition(partition);
        ArrowPartitionStream stream = new ArrowPartitionStream(schema, projection, partitions.get(partition), context.allocator(),
                metrics().partition(partition));
        return new MeteredBatchStream(stream, metrics().partition(partition), context);
    }

    @Override
    public String displayLine() {
        return "ArrowScanExec: table=" + tableName + ", files=" + fileCount + ", batches=" + batchesScanned()
                + ", partitions=" + partitions.size()
                + ", projection=[" + schema.getFields().stream().map(Field::getName).collect(Collectors.joining(", ")) + "]";
    }
}
