package dev.quiver.engine.source.json;

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
 * Leaf that parses JSON Lines files. Each output partition reads whole files, chosen and balanced
 * by {@link JsonTable#scan}; only the projected keys are converted. Besides the common metrics each
 * partition counts {@code scanned_bytes}, {@code files_opened} and, with {@code ignore_errors},
 * {@code errors_ignored} (values read as NULL, lines read as rows of NULLs).
 */
public final class JsonScanExec extends AbstractExecutionPlan implements TableScanExec {
    private final String tableName;
    private final Schema tableSchema;
    private final Schema schema;
    private final List<Integer> projection;
    private final List<List<JsonFile>> partitions;
    private final double bytesPerRow;
    private final boolean ignoreErrors;

    /**
     * A scan of {@code partitions} (each a list of files); {@code bytesPerRow} estimates rows from
     * bytes. Public so that plan codecs and the distributed planner can rebuild it.
     */
    public JsonScanExec(String tableName, Schema tableSchema, List<Integer> projection, List<List<JsonFile>> partitions, double bytesPerRow,
            boolean ignoreErrors) {
        this.tableName = requireNonNull(tableName, "tableName is null");
        this.tableSchema = requireNonNull(tableSchema, "tableSchema is null");
        this.projection = List.copyOf(requireNonNull(projection, "projection is null"));
        this.partitions = requireNonNull(partitions, "partitions is null").stream().map(List::copyOf).toList();
        this.bytesPerRow = bytesPerRow;
        this.ignoreErrors = ignoreErrors;
        if (this.partitions.isEmpty()) {
            throw new QuiverException(ErrorCode.PLAN_ERROR, "JsonScanExec needs at least one partition");
        }
        this.schema = Projections.project("JSON", tableName, tableSchema, this.projection);
    }

    @Override
    public String tableName() {
        return tableName;
    }

    @Override
    public boolean mayWarn() {
        return ignoreErrors;
    }

    /** With {@code ignore_errors}, how many values and lines the scan read as NULL ({@code errors_ignored}), if any. */
    @Override
    public List<QueryWarning> warnings(Map<String, Long> counters) {
        long ignored = counters.getOrDefault(JsonPartitionStream.ERRORS_IGNORED, 0L);
        if (ignored == 0) {
            return List.of();
        }
        return List.of(new QueryWarning(WarningCode.ERRORS_IGNORED, ignored + (ignored == 1 ? " error" : " errors") + " in " + tableName
                + " ignored (ignore_errors = true): a value that does not read as its column's type is NULL, a line that is not a JSON object"
                + " a row of NULLs"));
    }

    /** This scan reading other files (a task's share), with the same table and projection. */
    public JsonScanExec withPartitions(List<List<JsonFile>> partitions) {
        return new JsonScanExec(tableName, tableSchema, projection, partitions, bytesPerRow, ignoreErrors);
    }

    public Schema tableSchema() {
        return tableSchema;
    }

    public List<List<JsonFile>> partitions() {
        return partitions;
    }

    public List<Integer> projection() {
        return projection;
    }

    public double bytesPerRow() {
        return bytesPerRow;
    }

    public boolean ignoreErrors() {
        return ignoreErrors;
    }

    @Override
    public String name() {
        return "JsonScanExec";
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
            throw new QuiverException(ErrorCode.PLAN_ERROR, "JsonScanExec is a leaf; got " + children.size() + " children");
        }
        return this;
    }

    @Override
    public Statistics partitionStatistics(OptionalInt partition) {
        List<JsonFile> files;
        if (partition.isPresent()) {
            checkPartition(partition.getAsInt());
            files = partitions.get(partition.getAsInt());
        } else {
            files = partitions.stream().flatMap(List::stream).toList();
        }
        long bytes = files.stream().mapToLong(JsonFile::bytes).sum();
        long rows = bytesPerRow <= 0 ? 0 : Math.round(bytes / bytesPerRow);
        long projectedBytes = tableSchema.getFields().isEmpty() ? 0 : bytes * projection.size() / tableSchema.getFields().size();
        return new Statistics(Estimate.inexact(rows), Estimate.inexact(projectedBytes), Collections.nCopies(projection.size(), ColumnStatistics.unknown()));
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        checkPartition(partition);
        JsonPartitionStream stream = new JsonPartitionStream(tableSchema, projection, partitions.get(partition), ignoreErrors,
                Storages.forTask(context), context.allocator(),
                context.batchSize(), metrics().partition(partition));
        return new MeteredBatchStream(stream, metrics().partition(partition), context);
    }

    @Override
    public String displayLine() {
        return "JsonScanExec: table=" + tableName + ", files=" + partitions.stream().mapToInt(List::size).sum()
                + ", partitions=" + partitions.size()
                + (ignoreErrors ? ", ignore_errors=true" : "")
                + ", projection=[" + schema.getFields().stream().map(Field::getName).collect(Collectors.joining(", ")) + "]";
    }
}
