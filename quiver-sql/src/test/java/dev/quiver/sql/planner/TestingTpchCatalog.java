package dev.quiver.sql.planner;

import static dev.quiver.engine.types.QuiverTypes.DATE32;
import static dev.quiver.engine.types.QuiverTypes.INT32;
import static dev.quiver.engine.types.QuiverTypes.INT64;
import static dev.quiver.engine.types.QuiverTypes.UTF8;
import static dev.quiver.engine.types.QuiverTypes.decimal;
import static dev.quiver.engine.types.QuiverTypes.field;

import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.spi.Catalog;
import dev.quiver.engine.spi.ScanRequest;
import dev.quiver.engine.spi.TableSource;
import dev.quiver.engine.stats.ColumnStatistics;
import dev.quiver.engine.stats.Estimate;
import dev.quiver.engine.stats.Statistics;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A test double of the TPC-H catalog: the standard schema (all columns NOT NULL), SF 1 row counts
 * and the distinct counts of key columns, and no data.
 */
final class TestingTpchCatalog implements Catalog {
    private static final ArrowType MONEY = decimal(15, 2);

    private final Map<String, TableSource> tables = new LinkedHashMap<>();

    TestingTpchCatalog() {
        add("nation", 25, col("n_nationkey", INT64, 25), col("n_name", UTF8, 25), col("n_regionkey", INT64, 5), col("n_comment", UTF8, -1));
        add("region", 5, col("r_regionkey", INT64, 5), col("r_name", UTF8, 5), col("r_comment", UTF8, -1));
        add("part", 200_000, col("p_partkey", INT64, 200_000), col("p_name", UTF8, -1), col("p_mfgr", UTF8, -1),
                col("p_brand", UTF8, -1), col("p_type", UTF8, -1), col("p_size", INT32, -1), col("p_container", UTF8, -1),
                col("p_retailprice", MONEY, -1), col("p_comment", UTF8, -1));
        add("supplier", 10_000, col("s_suppkey", INT64, 10_000), col("s_name", UTF8, -1), col("s_address", UTF8, -1),
                col("s_nationkey", INT64, 25), col("s_phone", UTF8, -1), col("s_acctbal", MONEY, -1), col("s_comment", UTF8, -1));
        add("partsupp", 800_000, col("ps_partkey", INT64, 200_000), col("ps_suppkey", INT64, 10_000), col("ps_availqty", INT32, -1),
                col("ps_supplycost", MONEY, -1), col("ps_comment", UTF8, -1));
        add("customer", 150_000, col("c_custkey", INT64, 150_000), col("c_name", UTF8, -1), col("c_address", UTF8, -1),
                col("c_nationkey", INT64, 25), col("c_phone", UTF8, -1), col("c_acctbal", MONEY, -1), col("c_mktsegment", UTF8, -1),
                col("c_comment", UTF8, -1));
        add("orders", 1_500_000, col("o_orderkey", INT64, 1_500_000), col("o_custkey", INT64, 99_996), col("o_orderstatus", UTF8, -1),
                col("o_totalprice", MONEY, -1), col("o_orderdate", DATE32, -1), col("o_orderpriority", UTF8, -1), col("o_clerk", UTF8, -1),
                col("o_shippriority", INT32, -1), col("o_comment", UTF8, -1));
        add("lineitem", 6_001_215, col("l_orderkey", INT64, 1_500_000), col("l_partkey", INT64, 200_000), col("l_suppkey", INT64, 10_000),
                col("l_linenumber", INT32, -1), col("l_quantity", MONEY, -1), col("l_extendedprice", MONEY, -1), col("l_discount", MONEY, -1),
                col("l_tax", MONEY, -1), col("l_returnflag", UTF8, -1), col("l_linestatus", UTF8, -1), col("l_shipdate", DATE32, -1),
                col("l_commitdate", DATE32, -1), col("l_receiptdate", DATE32, -1), col("l_shipinstruct", UTF8, -1),
                col("l_shipmode", UTF8, -1), col("l_comment", UTF8, -1));
    }

    private record Column(Field field, long distinct) {}

    private static Column col(String name, ArrowType type, long distinct) {
        return new Column(field(name, type, false), distinct);
    }

    private void add(String name, long rows, Column... columns) {
        List<Field> fields = new ArrayList<>();
        List<ColumnStatistics> statistics = new ArrayList<>();
        for (Column column : columns) {
            fields.add(column.field());
            Estimate distinct = column.distinct() < 0 ? Estimate.absent() : Estimate.exact(column.distinct());
            statistics.add(ColumnStatistics.unknown().withDistinctCount(distinct));
        }
        // the primary keys of the specification: the first column, two for lineitem and partsupp
        List<List<Integer>> keys = switch (name) {
            case "lineitem" -> List.of(List.of(0, 3));
            case "partsupp" -> List.of(List.of(0, 1));
            default -> List.of(List.of(0));
        };
        tables.put(name, new StubTable(name, new Schema(fields), new Statistics(Estimate.exact(rows), Estimate.absent(), statistics), keys));
    }

    @Override
    public Optional<TableSource> table(String name) {
        return Optional.ofNullable(tables.get(name.toLowerCase(Locale.ROOT)));
    }

    @Override
    public Set<String> tableNames() {
        return tables.keySet();
    }

    /** A table with a schema and statistics that cannot be scanned. */
    record StubTable(String name, Schema schema, Statistics statistics, List<List<Integer>> uniqueKeys) implements TableSource {
        StubTable(String name, Schema schema, Statistics statistics) {
            this(name, schema, statistics, List.of());
        }

        @Override
        public ExecutionPlan scan(ScanRequest request) {
            throw new UnsupportedOperationException("test double: " + name + " has no data");
        }
    }
}
