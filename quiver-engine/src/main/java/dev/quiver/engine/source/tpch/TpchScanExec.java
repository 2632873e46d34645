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
import dev.quiver.engine.spi.TableScanExec;
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
 * Leaf that generates a TPC-H table: the table is generated in {@code totalParts} parts, and
 * partition {@code p} generates part {@code firstPart + p + 1} on the thread that pulls it,
 * writing only the projected columns (a partition past the last part is empty). A scan from the
 * catalog reads every part ({@code firstPart = 0}, as many parts as partitions); the distributed
 * planner gives each task a {@linkplain #withParts share}. With a catalog cache, it shares the
 * part's kept columns instead (see {@link TpchDataCache}).
 */
public final class TpchScanExec extends AbstractExecutionPlan implements TableScanExec {
    private final TpchTableDef<? extends TpchEntity> table;
    private final double scaleFactor;
    private final List<Integer> projection;
    private final int partCount;
    private final int firstPart;
    private final int totalParts;
    private final Schema schema;
    private final Optional<TpchDataCache> cache;

    TpchScanExec(TpchTableDef<? extends TpchEntity> table, double scaleFactor, List<Integer> projection, int partCount,
            Optional<TpchDataCache> cache) {
        this(table, scaleFactor, projection, partCount, 0, partCount, cache);
    }

    private TpchScanExec(TpchTableDef<? extends TpchEntity> table, double scaleFactor, List<Integer> projection, int partCount, int firstPart,
            int totalParts, Optional<TpchDataCache> cache) {
        this.table = requireNonNull(table, "table is null");
        this.cache = requireNonNull(cache, "cache is null");
        this.scaleFactor = scaleFactor;
        this.projection = List.copyOf(requireNonNull(projection, "projection is null"));
        this.partCount = partCount;
        this.firstPart = firstPart;
        this.totalParts = totalParts;
        if (partCount < 1) {
            throw new QuiverException(ErrorCode.PLAN_ERROR, "TpchScanExec needs at least one partition: " + partCount);
        }
        if (firstPart < 0 || totalParts < 1) {
            throw new QuiverException(ErrorCode.PLAN_ERROR, "TpchScanExec parts start at " + firstPart + " of " + totalParts
                    + "; expected a first part >= 0 of at least one part");
        }
        for (int index : this.projection) {
            if (index < 0 || index >= table.columns().size()) {
                throw new QuiverException(ErrorCode.PLAN_ERROR,
                        "column " + index + " is out of range for TPC-H table " + table.name() + " with " + table.columns().size() + " columns");
            }
        }
        this.schema = new Schema(this.projection.stream().map(i -> table.columns().get(i).field()).toList());
    }

    /**
     * This scan reading parts {@code [firstPart, firstPart + partitions)} (0-based) of the table
     * generated in {@code totalParts} parts, one part per partition. A fixed-size table (nation,
     * region) is always generated in one part, whatever {@code totalParts} says.
     */
    public TpchScanExec withParts(int firstPart, int partitions, int totalParts) {
        return new TpchScanExec(table, scaleFactor, projection, partitions, firstPart, table.partCount(totalParts), cache);
    }

    /** The 0-based part this scan's partition 0 generates. */
    public int firstPart() {
        return firstPart;
    }

    /** How many parts the table is generated in. */
    public int totalParts() {
        return totalParts;
    }

    @Override
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
        boolean readsEveryPart = firstPart == 0 && partCount >= totalParts;
        Estimate rows;
        if (partition.isPresent()) {
            int part = checkedPart(partition.getAsInt());
            rows = part > totalParts ? Estimate.exact(0) : table.rowCounter().rows(scaleFactor, part, totalParts);
        } else if (readsEveryPart) {
            rows = whole.rowCount();
        } else {
            rows = Estimate.exact(0);
            for (int part = firstPart + 1; part <= Math.min(totalParts, firstPart + partCount); part++) {
                rows = rows.plus(table.rowCounter().rows(scaleFactor, part, totalParts));
            }
        }
        long width = projection.stream().mapToLong(i -> table.columns().get(i).averageWidth()).sum();
        Estimate bytes = rows.isKnown() ? Estimate.inexact(rows.value() * width) : Estimate.absent();
        // a part, or a task's share of the parts, has the table's column statistics only as bounds
        boolean wholeTable = readsEveryPart && (partition.isEmpty() || totalParts == 1);
        if (!wholeTable) {
            columns = columns.stream().map(ColumnStatistics::toInexact).toList();
        }
        return new Statistics(rows, bytes, columns);
    }

    private int checkedPart(int partition) {
        checkPartition(partition);
        return firstPart + partition + 1;
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        int part = checkedPart(partition);
        BatchStream stream = part > totalParts ? BatchStream.empty(schema) : stream(table, part, partition, context);
        return new MeteredBatchStream(stream, metrics().partition(partition), context);
    }

    private <E extends TpchEntity> BatchStream stream(TpchTableDef<E> def, int part, int partition, TaskContext context) {
        List<TpchColumnDef<E>> columns = projection.stream().map(def.columns()::get).toList();
        PartitionMetrics metrics = metrics().partition(partition);
        Supplier<BatchStream> generate = () -> new TpchPartitionStream<>(schema, columns,
                () -> def.generate(scaleFactor, part, totalParts).iterator(), context.allocator(), context.batchSize(), metrics);
        if (cache.isEmpty()) {
            return generate.get();
        }
        return new CachedPartitionStream(schema, projection,
                () -> cache.get().part(def, scaleFactor, part, totalParts, projection, context.batchSize(), metrics).orElse(null),
                generate, context.allocator(), metrics);
    }

    @Override
    public String displayLine() {
        return "TpchScanExec: table=" + table.name() + ", sf=" + scaleFactor + ", partitions=" + partCount
                + (firstPart == 0 && totalParts == partCount ? "" : ", parts=[" + firstPart + ", " + (firstPart + partCount) + ") of " + totalParts)
                + (cache.isPresent() ? ", cached" : "") + ", projection=[" + schema.getFields().stream().map(f -> f.getName()).collect(Collectors.joining(", ")) + "]";
    }
}
