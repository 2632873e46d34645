package dev.quiver.engine.source.parquet;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.AbstractExecutionPlan;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.MeteredBatchStream;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.source.files.ScanCounters;
import dev.quiver.engine.source.storage.Storages;
import dev.quiver.engine.spi.Projections;
import dev.quiver.engine.spi.TableScanExec;
import dev.quiver.engine.stats.Estimate;
import dev.quiver.engine.stats.Statistics;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Leaf that reads Parquet row groups. Each output partition is a list of whole row groups
 * (chosen and balanced by {@link ParquetTable#scan}); row groups whose footer statistics rule out
 * the pushed filters were dropped at planning and are counted as pruned. The filters are only a
 * hint: the engine still applies them above this node.
 *
 * <p>Besides the common metrics, each partition counts {@code scanned_bytes} (compressed column
 * chunks read) and {@code files_opened} ({@link ScanCounters}), and {@link #rowGroupsRead()}
 * counts row groups opened by executions.
 */
public final class ParquetScanExec extends AbstractExecutionPlan implements TableScanExec {
    private final String tableName;
    private final Schema schema;
    private final List<Integer> projection;
    private final List<List<ParquetRowGroup>> partitions;
    private final List<PhysicalExpr> filters;
    private final int fileCount;
    private final int rowGroupsTotal;
    private final Schema tableSchema;
    private final AtomicLong rowGroupsRead = new AtomicLong();

    /**
     * A scan of {@code partitions} (each a list of whole row groups) of a table; {@code filters} are
     * the pushed-down pruning hints, {@code fileCount} and {@code rowGroupsTotal} describe the whole
     * table for display. Public so that plan codecs and the distributed planner can rebuild it.
     */
    public ParquetScanExec(String tableName, Schema tableSchema, List<Integer> projection, List<List<ParquetRowGroup>> partitions,
            List<PhysicalExpr> filters, int fileCount, int rowGroupsTotal) {
        this.tableName = requireNonNull(tableName, "tableName is null");
        this.tableSchema = requireNonNull(tableSchema, "tableSchema is null");
        this.projection = List.copyOf(requireNonNull(projection, "projection is null"));
        this.partitions = requireNonNull(partitions, "partitions is null").stream().map(List::copyOf).toList();
        this.filters = List.copyOf(requireNonNull(filters, "filters is null"));
        this.fileCount = fileCount;
        this.rowGroupsTotal = rowGroupsTotal;
        if (this.partitions.isEmpty()) {
            throw new QuiverException(ErrorCode.PLAN_ERROR, "ParquetScanExec needs at least one partition");
        }
        this.schema = Projections.project("Parquet", tableName, tableSchema, this.projection);
    }

    @Override
    public String tableName() {
        return tableName;
    }

    /** This scan reading other row groups (a task's share), with the same table, projection and filters. */
    public ParquetScanExec withPartitions(List<List<ParquetRowGroup>> partitions) {
        return new ParquetScanExec(tableName, tableSchema, projection, partitions, filters, fileCount, rowGroupsTotal);
    }

    public Schema tableSchema() {
        return tableSchema;
    }

    /** The row groups of each partition. */
    public List<List<ParquetRowGroup>> partitions() {
        return partitions;
    }

    public List<PhysicalExpr> filters() {
        return filters;
    }

    public int fileCount() {
        return fileCount;
    }

    public int rowGroupsTotal() {
        return rowGroupsTotal;
    }

    /** The table's column indexes this scan produces, in order. */
    public List<Integer> projection() {
        return projection;
    }

    /** Row groups this scan will read, over all partitions (after pruning). */
    public int rowGroupsScanned() {
        return partitions.stream().mapToInt(List::size).sum();
    }

    /** Row groups of the table that the filters ruled out by their statistics. */
    public int rowGroupsPruned() {
        return rowGroupsTotal - rowGroupsScanned();
    }

    /** Row groups opened so far by executions of this node. */
    public long rowGroupsRead() {
        return rowGroupsRead.get();
    }

    @Override
    public String name() {
        return "ParquetScanExec";
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
            throw new QuiverException(ErrorCode.PLAN_ERROR, "ParquetScanExec is a leaf; got " + children.size() + " children");
        }
        return this;
    }

    @Override
    public Statistics partitionStatistics(OptionalInt partition) {
        List<ParquetRowGroup> rowGroups;
        if (partition.isPresent()) {
            checkPartition(partition.getAsInt());
            rowGroups = partitions.get(partition.getAsInt());
        } else {
            rowGroups = partitions.stream().flatMap(List::stream).toList();
        }
        long rows = rowGroups.stream().mapToLong(ParquetRowGroup::rowCount).sum();
        long bytes = rowGroups.stream().mapToLong(rowGroup -> rowGroup.bytes(projection)).sum();
        return new Statistics(Estimate.exact(rows), Estimate.inexact(bytes), ParquetStatistics.merge(rowGroups, projection));
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        checkPartition(partition);
        ParquetPartitionStream stream = new ParquetPartitionStream(tableSchema, projection, partitionColumns(), partitions.get(partition),
                Storages.forTask(context), context.allocator(), context.batchSize(), metrics().partition(partition),
                new ScanCounters(metrics().partition(partition), rowGroupsRead));
        return new MeteredBatchStream(stream, metrics().partition(partition), context);
    }

    /** The number of Hive partition columns at the end of the table schema (every row group carries their values). */
    private int partitionColumns() {
        return partitions.stream().flatMap(List::stream).findFirst().map(rowGroup -> rowGroup.partitionValues().size()).orElse(0);
    }

    /** Files this scan reads (those of the row groups left after pruning). */
    public long filesScanned() {
        return partitions.stream().flatMap(List::stream).map(ParquetRowGroup::file).distinct().count();
    }

    @Override
    public String displayLine() {
        long scanned = filesScanned();
        StringBuilder line = new StringBuilder("ParquetScanExec: table=").append(tableName)
                .append(", files=").append(scanned < fileCount ? scanned + "/" + fileCount : Long.toString(fileCount))
                .append(", row_groups=").append(rowGroupsScanned()).append('/').append(rowGroupsTotal)
                .append(", partitions=").append(partitions.size())
                .append(", projection=[").append(schema.getFields().stream().map(Field::getName).collect(Collectors.joining(", "))).append(']');
        if (!filters.isEmpty()) {
            line.append(", pruning_predicate=").append(filters.stream().map(PhysicalExpr::display).collect(Collectors.joining(" AND ")));
        }
        return line.toString();
    }
}
