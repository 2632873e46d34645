package dev.quiver.engine.source.tpch;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.spi.ScanRequest;
import dev.quiver.engine.spi.TableSource;
import dev.quiver.engine.stats.Statistics;
import io.trino.tpch.TpchEntity;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/** One TPC-H table at one scale factor; scans generate the data on the fly. Filters are left to the engine. */
public final class TpchTableSource implements TableSource {
    private final TpchTableDef<? extends TpchEntity> table;
    private final double scaleFactor;
    private final Schema schema;
    private final Statistics statistics;
    private final Optional<TpchDataCache> cache;

    TpchTableSource(TpchTableDef<? extends TpchEntity> table, double scaleFactor, Optional<TpchDataCache> cache) {
        this.cache = requireNonNull(cache, "cache is null");
        this.table = requireNonNull(table, "table is null");
        this.scaleFactor = scaleFactor;
        this.schema = table.schema();
        this.statistics = TpchStatistics.of(table, scaleFactor);
    }

    @Override
    public String name() {
        return table.name();
    }

    @Override
    public Schema schema() {
        return schema;
    }

    @Override
    public Statistics statistics() {
        return statistics;
    }

    /** The table's primary key as the specification declares it: lineitem and partsupp have two columns. */
    @Override
    public List<List<Integer>> uniqueKeys() {
        return switch (table.name()) {
            case "lineitem" -> List.of(List.of(column("l_orderkey"), column("l_linenumber")));
            case "partsupp" -> List.of(List.of(column("ps_partkey"), column("ps_suppkey")));
            default -> List.of(List.of(0));
        };
    }

    private int column(String name) {
        List<Field> fields = schema.getFields();
        for (int i = 0; i < fields.size(); i++) {
            if (fields.get(i).getName().equals(name)) {
                return i;
            }
        }
        throw new IllegalStateException("no column " + name + " in " + table.name());
    }

    public double scaleFactor() {
        return scaleFactor;
    }

    @Override
    public ExecutionPlan scan(ScanRequest request) {
        List<Integer> projection = request.projection()
                .orElseGet(() -> IntStream.range(0, schema.getFields().size()).boxed().toList());
        return new TpchScanExec(table, scaleFactor, projection, table.partCount(request.targetPartitions()), cache);
    }

    @Override
    public String toString() {
        return "tpch(sf=" + scaleFactor + ")." + table.name();
    }
}
