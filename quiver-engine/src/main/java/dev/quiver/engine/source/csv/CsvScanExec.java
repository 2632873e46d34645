package dev.quiver.engine.source.csv;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QueryWarning;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.error.WarningCode;
import dev.quiver.engine.execution.AbstractExecutionPlan;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.MeteredBatchStream;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.source.files.ScanCounters;
import dev.quiver.engine.source.storage.Storages;
import dev.quiver.engine.spi.Projections;
import dev.quiver.engine.spi.TableScanExec;
import dev.quiver.engine.stats.ColumnStatistics;
import dev.quiver.engine.stats.Estimate;
import dev.quiver.engine.stats.Statistics;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.stream.Collectors;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Leaf that parses CSV files. Each output partition reads whole files, chosen and balanced by
 * {@link CsvTable#scan}; every column of a row is checked for the field count, only the projected
 * ones are parsed. Besides the common metrics each partition counts {@code scanned_bytes},
 * {@code files_opened} and, with {@code ignore_errors}, {@code rows_skipped}.
 */
public final class CsvScanExec extends AbstractExecutionPlan implements TableScanExec {
    private final String tableName;
    private final Schema tableSchema;
    private final Schema schema;
    private final List<Integer> projection;
    private final List<List<CsvFile>> partitions;
    private final double bytesPerRow;
    private final CsvFormat format;

    /** A scan of files in the default format (commas, a header). */
    public CsvScanExec(String tableName, Schema tableSchema, List<Integer> projection, List<List<CsvFile>> partitions, double bytesPerRow) {
        this(tableName, tableSchema, projection, partitions, bytesPerRow, CsvFormat.DEFAULT);
    }

    /**
     * A scan of {@code partitions} (each a list of file byte ranges) read as {@code format};
     * {@code bytesPerRow} estimates rows from bytes. Public so that plan codecs and the distributed
     * planner can rebuild it.
     */
    public CsvScanExec(String tableName, Schema tableSchema, List<Integer> projection, List<List<CsvFile>> partitions, double bytesPerRow,
            CsvFormat format) {
        this.format = requireNonNull(format, "format is null");
        this.tableName = requireNonNull(tableName, "tableName is null");
        this.tableSchema = requireNonNull(tableSchema, "tableSchema is null");
        this.projection = List.copyOf(requireNonNull(projection, "projection is null"));
        this.partitions = requireNonNull(partitions, "partitions is null").stream().map(List::copyOf).toList();
        this.bytesPerRow = bytesPerRow;
        if (this.partitions.isEmpty()) {
            throw new QuiverException(ErrorCode.PLAN_ERROR, "CsvScanExec needs at least one partition");
        }
        this.schema = Projections.project("CSV", tableName, tableSchema, this.projection);
    }

    @Override
    public String tableName() {
        return tableName;
    }

    @Override
    public boolean mayWarn() {
        return format.ignoreErrors();
    }

    /** With {@code ignore_errors}, how many rows the scan skipped ({@code rows_skipped}), if any. */
    @Override
    public List<QueryWarning> warnings(Map<String, Long> counters) {
        long skipped = counters.getOrDefault(ScanCounters.ROWS_SKIPPED, 0L);
        if (skipped == 0) {
            return List.of();
        }
        return List.of(new QueryWarning(WarningCode.ROWS_SKIPPED, skipped + (skipped == 1 ? " row of " : " rows of ") + tableName
                + " skipped (ignore_errors = true): " + (skipped == 1 ? "it does" : "they do") + " not read as the table's columns"));
    }

    /** This scan reading other byte ranges (a task's share), with the same table and projection. */
    public CsvScanExec withPartitions(List<List<CsvFile>> partitions) {
        return new CsvScanExec(tableName, tableSchema, projection, partitions, bytesPerRow, format);
    }

    public Schema tableSchema() {
        return tableSchema;
    }

    /** The file byte ranges of each partition. */
    public List<List<CsvFile>> partitions() {
        return partitions;
    }

    public CsvFormat format() {
        return format;
    }

    public double bytesPerRow() {
        return bytesPerRow;
    }

    public List<Integer> projection() {
        return projection;
    }

    @Override
    public String name() {
        return "CsvScanExec";
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
            throw new QuiverException(ErrorCode.PLAN_ERROR, "CsvScanExec is a leaf; got " + children.size() + " children");
        }
        return this;
    }

    @Override
    public Statistics partitionStatistics(OptionalInt partition) {
        List<CsvFile> files;
        if (partition.isPresent()) {
            checkPartition(partition.getAsInt());
            files = partitions.get(partition.getAsInt());
        } else {
            files = partitions.stream().flatMap(List::stream).toList();
        }
        long bytes = files.stream().mapToLong(CsvFile::bytes).sum();
        long rows = bytesPerRow <= 0 ? 0 : Math.round(bytes / bytesPerRow);
        long projectedBytes = tableSchema.getFields().isEmpty() ? 0 : bytes * projection.size() / tableSchema.getFields().size();
        return new Statistics(Estimate.inexact(rows), Estimate.inexact(projectedBytes),
                Collections.nCopies(projection.size(), ColumnStatistics.unknown()));
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        checkPartition(partition);
        CsvPartitionStream stream = new CsvPartitionStream(tableSchema, projection, partitions.get(partition), format,
                Storages.forTask(context), context.allocator(),
                context.batchSize(), metrics().partition(partition));
        return new MeteredBatchStream(stream, metrics().partition(partition), context);
    }

    @Override
    public String displayLine() {
        return "CsvScanExec: table=" + tableName + ", files=" + partitions.stream().flatMap(List::stream).map(CsvFile::path).distinct().count()
                + ", splits=" + partitions.stream().mapToInt(List::size).sum()
                + ", partitions=" + partitions.size()
                + (format.delimiter() == ',' ? "" : ", delimiter=" + (format.delimiter() == '\t' ? "\\t" : String.valueOf(format.delimiter())))
                + (format.header() ? "" : ", header=false")
                + (format.ignoreErrors() ? ", ignore_errors=true" : "")
                + ", projection=[" + schema.getFields().stream().map(Field::getName).collect(Collectors.joining(", ")) + "]";
    }
}
