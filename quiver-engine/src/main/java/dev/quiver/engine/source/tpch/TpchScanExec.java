package dev.quiver.engine.source.tpch;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.AbstractExecutionPlan;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.MeteredBatchStream;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.metrics.PartitionMetrics;
import dev.quiver.engine.stats.ColumnStatistics;
import dev.quiver.engine.stats.Estimate;
import dev.quiver.engine.stats.Statistics;
import io.trino.tpch.TpchEntity;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Leaf that generates a TPC-H table: the table is generated in as many parts as the scan has
 * partitions, and partition {@code p} generates part {@code p + 1} on the thread that pulls it,
 * writing only the projected columns. With a catalog cache, it copies the part's kept columns
 * instead (see {@link TpchDataCache}).
 */
public final class TpchScanExec extends AbstractExecutionPlan {
    private final TpchTableDef<? extends TpchEntity> table;
    private final double scaleFactor;
    private final List<Integer> projection;
    private final int partCount;
    private final Schema schema;
    private final Optional<TpchDataCache> cache;

    TpchScanExec(TpchTableDef<? extends TpchEntity> table, double scaleFactor, List<Integer> projection, int partCount,
            Optional<TpchDataCache> cache) {
        this.table = requireNonNull(table, "table is null");
        this.cache = requireNonNull(cache, "cache is null");
        this.scaleFactor = scaleFactor;
        this.projection = List.copyOf(requireNonNull(projection, "projection is null"));
        this.partCount = partCount;
        if (partCount < 1) {
            throw new QuiverException(ErrorCode.PLAN_ERROR, "TpchScanExec needs at least one partition: " + partCount);
        }
        for (int index : this.projection) {
            if (index < 0 || index >= table.columns().size()) {
                throw new QuiverException(ErrorCode.PLAN_ERROR,
                        "column " + index + " is out of range for TPC-H table " + table.name() + " with " + table.columns().size() + " columns");
            }
        }
        this.schema = new Schema(this.projection.stream().map(i -> table.columns().get(i).field()).toList());
    }

    public String tableName() {
        return table.name();
    }

    public double scaleFactor() {
        return scaleFactor;
    }

    /** The table's column indexes this scan produces, in order. */
    public List<Integer> projection() {
        return projection;
    }

    @Override
    public String name() {
        return "TpchScanExec";
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
        return new Partitioning.Unknown(partCount);
    }

    @Override
    public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
        if (!children.isEmpty()) {
            throw new QuiverException(ErrorCode.PLAN_ERROR, "TpchScanExec is a leaf; got " + children.size() + " children");
        }
        return this;
    }

    @Override
    public Statistics partitionStatistics(OptionalInt partition) {
        Statistics whole = TpchStatistics.of(table, scaleFactor);
        List<ColumnStatistics> columns = projection.stream().map(whole.columns()::get).toList();
        Estimate rows = partition.isPresent()
                ? table.rowCounter().rows(scaleFactor, checkedPart(partition.getAsInt()), partCount)
                : whole.rowCount();
        long width = projection.stream().mapToLong(i -> table.columns().get(i).averageWidth()).sum();
        Estimate bytes = rows.isKnown() ? Estimate.inexact(rows.value() * width) : Estimate.absent();
        if (partition.isPresent() && partCount > 1) {
            columns = columns.stream().map(ColumnStatistics::toInexact).toList();
        }
        return new Statistics(rows, bytes, columns);
    }

    private int checkedPart(int partition) {
        checkPartition(partition);
        return partition + 1;
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        checkPartition(partition);
        return new MeteredBatchStream(stream(table, partition + 1, context), metrics().partition(partition), context);
    }

    private <E extends TpchEntity> BatchStream stream(TpchTableDef<E> def, int part, TaskContext context) {
        List<TpchColumnDef<E>> columns = projection.stream().map(def.columns()::get).toList();
        PartitionMetrics metrics = metrics().partition(part - 1);
        Supplier<BatchStream> generate = () -> new TpchPartitionStream<>(schema, columns,
                () -> def.generate(scaleFactor, part, partCount).iterator(), context.allocator(), context.batchSize(), metrics);
        if (cache.isEmpty()) {
            return generate.get();
        }
        return new CachedPartitionStream(schema, projection,
                () -> cache.get().part(def, scaleFactor, part, partCount, projection, context.batchSize(), metrics).orElse(null),
                generate, context.allocator(), metrics);
    }

    @Override
    public String displayLine() {
        return "TpchScanExec: table=" + table.name() + ", sf=" + scaleFactor + ", partitions=" + partCount
                + (cache.isPresent() ? ", cached" : "") + ", projection=[" + schema.getFields().stream().map(f -> f.getName()).collect(Collectors.joining(", ")) + "]";
    }
}
