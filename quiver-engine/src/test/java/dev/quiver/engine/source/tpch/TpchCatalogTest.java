package dev.quiver.engine.source.tpch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.batch.Batches;
import dev.quiver.engine.batch.VectorValues;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.spi.ScanRequest;
import dev.quiver.engine.spi.TableSource;
import dev.quiver.engine.stats.Estimate;
import dev.quiver.engine.stats.Statistics;
import dev.quiver.engine.testing.TestingContext;
import dev.quiver.engine.types.QuiverTypes;
import io.trino.tpch.TpchColumn;
import io.trino.tpch.TpchEntity;
import io.trino.tpch.TpchTable;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.assertj.core.data.Percentage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class TpchCatalogTest {
    private static final double SF = 0.01;
    private static final Map<String, Long> ROWS_AT_SF_001 = Map.of(
            "customer", 1_500L, "lineitem", 60_175L, "nation", 25L, "orders", 15_000L,
            "part", 2_000L, "partsupp", 8_000L, "region", 5L, "supplier", 100L);

    private final TpchCatalog catalog = new TpchCatalog(SF);

    @Test
    void namesAreCaseInsensitive() {
        assertThat(catalog.tableNames()).containsExactly("customer", "lineitem", "nation", "orders", "part", "partsupp", "region", "supplier");
        assertThat(catalog.table("LineItem")).isPresent().get().extracting(TableSource::name).isEqualTo("lineitem");
        assertThat(catalog.table("lineitems")).isEmpty();
        assertThatThrownBy(() -> new TpchCatalog(0)).isInstanceOf(QuiverException.class).hasMessageContaining("scale factor");
    }

    @Test
    void schemaHasStandardTypes() {
        TableSource lineitem = catalog.table("lineitem").orElseThrow();
        assertThat(lineitem.schema().getFields()).extracting(Field::getName).containsExactly(
                "l_orderkey", "l_partkey", "l_suppkey", "l_linenumber", "l_quantity", "l_extendedprice", "l_discount", "l_tax",
                "l_returnflag", "l_linestatus", "l_shipdate", "l_commitdate", "l_receiptdate", "l_shipinstruct", "l_shipmode", "l_comment");
        assertThat(lineitem.schema().getFields()).extracting(f -> QuiverTypes.sqlName(f.getType())).containsExactly(
                "BIGINT", "BIGINT", "BIGINT", "INTEGER", "DECIMAL(15,2)", "DECIMAL(15,2)", "DECIMAL(15,2)", "DECIMAL(15,2)",
                "VARCHAR", "VARCHAR", "DATE", "DATE", "DATE", "VARCHAR", "VARCHAR", "VARCHAR");
        assertThat(lineitem.schema().getFields()).noneMatch(Field::isNullable);
    }

    @ParameterizedTest
    @ValueSource(strings = {"customer", "lineitem", "nation", "orders", "part", "partsupp", "region", "supplier"})
    void everyValueMatchesTheGenerator(String name) {
        TableSource source = catalog.table(name).orElseThrow();
        assertThat(source.statistics().rowCount()).isEqualTo(Estimate.exact(ROWS_AT_SF_001.get(name)));
        ExecutionPlan scan = source.scan(ScanRequest.all(3));
        long total = 0;
        try (TestingContext testing = new TestingContext().withBatchSize(1000)) {
            int partitions = scan.outputPartitioning().partitionCount();
            for (int p = 0; p < partitions; p++) {
                long rows = comparePartition(TpchTable.getTable(name), scan, p, partitions, testing);
                Statistics stats = scan.partitionStatistics(OptionalInt.of(p));
                if (stats.rowCount().isExact()) {
                    assertThat(rows).isEqualTo(stats.rowCount().value());
                } else {
                    assertThat((double) rows).isCloseTo(stats.rowCount().value(), Percentage.withPercentage(5));
                }
                total += rows;
            }
        }
        assertThat(total).isEqualTo(ROWS_AT_SF_001.get(name));
        assertThat(scan.metrics().outputRows()).isEqualTo(total);
    }

    private static <E extends TpchEntity> long comparePartition(TpchTable<E> table, ExecutionPlan scan, int partition, int partitions,
            TestingContext testing) {
        Iterator<E> expected = table.createGenerator(SF, partition + 1, partitions).iterator();
        long rows = 0;
        try (BatchStream stream = scan.execute(partition, testing.context())) {
            for (VectorSchemaRoot next = stream.next(); next != null; next = stream.next()) {
                try (VectorSchemaRoot batch = next) {
                    assertThat(batch.getRowCount()).isLessThanOrEqualTo(1000);
                    for (int r = 0; r < batch.getRowCount(); r++) {
                        E entity = expected.next();
                        for (int c = 0; c < table.getColumns().size(); c++) {
                            TpchColumn<E> column = table.getColumns().get(c);
                            assertThat(VectorValues.get(batch.getVector(c), r))
                                    .as("%s row %d", column.getColumnName(), rows)
                                    .isEqualTo(generatorValue(column, entity));
                        }
                        rows++;
                    }
                }
            }
        }
        assertThat(expected.hasNext()).isFalse();
        return rows;
    }

    private static <E extends TpchEntity> Object generatorValue(TpchColumn<E> column, E entity) {
        return switch (column.getType().getBase()) {
            case IDENTIFIER -> column.getIdentifier(entity);
            case INTEGER -> column.getInteger(entity);
            case DATE -> column.getDate(entity);
            case VARCHAR -> column.getString(entity);
            // the generator's doubles are cents / 100.0: back to two decimals they are exact
            case DOUBLE -> BigDecimal.valueOf(column.getDouble(entity)).setScale(2);
        };
    }

    @ParameterizedTest
    @ValueSource(strings = {"orders", "nation", "partsupp"})
    void cachedCatalogServesTheGeneratedData(String name) {
        try (TpchCatalog cached = TpchCatalog.cached(SF, 1L << 30); TestingContext testing = new TestingContext().withBatchSize(1000)) {
            TableSource source = cached.table(name).orElseThrow();
            // a partial projection first: the cache keeps those columns, later scans add the rest
            ExecutionPlan partial = source.scan(new ScanRequest(Optional.of(List.of(1, 0)), List.of(), 2));
            assertThat(allRows(partial, testing)).hasSize(ROWS_AT_SF_001.get(name).intValue());
            long afterPartial = cached.cachedBytes();
            assertThat(afterPartial).isPositive();
            for (int pass = 0; pass < 2; pass++) {
                ExecutionPlan scan = source.scan(ScanRequest.all(2));
                assertThat(scan.displayLine()).contains("cached");
                int partitions = scan.outputPartitioning().partitionCount();
                long total = 0;
                for (int p = 0; p < partitions; p++) {
                    total += comparePartition(TpchTable.getTable(name), scan, p, partitions, testing);
                }
                assertThat(total).isEqualTo(ROWS_AT_SF_001.get(name));
            }
            assertThat(cached.cachedBytes()).isGreaterThan(afterPartial);
        }
    }

    @Test
    void cachedScansShareTheCacheMemoryWithoutLeaks() {
        // lineitem has every column type the cache holds: BIGINT, INTEGER, DECIMAL, DATE, VARCHAR
        ExecutionPlan generated = catalog.table("lineitem").orElseThrow().scan(ScanRequest.all(2));
        try (TpchCatalog cached = TpchCatalog.cached(SF, 1L << 30); TestingContext testing = new TestingContext().withBatchSize(1000)) {
            List<List<Object>> expected = allRows(generated, testing);
            ExecutionPlan scan = cached.table("lineitem").orElseThrow().scan(ScanRequest.all(2));
            assertThat(allRows(scan, testing)).isEqualTo(expected);
            long kept = cached.cachedBytes();
            assertThat(testing.allocator().getAllocatedMemory()).isZero();

            // a second scan, its batches held all at once: the query is charged for them, the cache does not grow
            List<VectorSchemaRoot> held = new ArrayList<>();
            try {
                for (int p = 0; p < 2; p++) {
                    try (BatchStream stream = scan.execute(p, testing.context())) {
                        for (VectorSchemaRoot next = stream.next(); next != null; next = stream.next()) {
                            held.add(next);
                        }
                    }
                }
                assertThat(testing.allocator().getAllocatedMemory()).isPositive();
                assertThat(cached.cachedBytes()).isEqualTo(kept);
                List<List<Object>> rows = new ArrayList<>();
                held.forEach(batch -> rows.addAll(Batches.toRows(batch)));
                assertThat(rows).isEqualTo(expected);
            } finally {
                held.forEach(VectorSchemaRoot::close);
            }
            // two scans read the same memory, the cache's, rather than copies of it
            try (BatchStream first = scan.execute(0, testing.context()); BatchStream second = scan.execute(0, testing.context());
                    VectorSchemaRoot one = first.next(); VectorSchemaRoot other = second.next()) {
                for (int c = 0; c < one.getFieldVectors().size(); c++) {
                    assertThat(one.getVector(c).getDataBuffer().memoryAddress())
                            .isEqualTo(other.getVector(c).getDataBuffer().memoryAddress());
                }
            }
            // closing the query's batches gives back only its references: the cache keeps its data
            assertThat(testing.allocator().getAllocatedMemory()).isZero();
            assertThat(cached.cachedBytes()).isEqualTo(kept);
            assertThat(allRows(scan, testing)).isEqualTo(expected);
        }
    }

    @Test
    void cacheTooSmallFallsBackToGenerating() {
        try (TpchCatalog cached = TpchCatalog.cached(SF, 4096); TestingContext testing = new TestingContext()) {
            ExecutionPlan scan = cached.table("orders").orElseThrow().scan(ScanRequest.all(2));
            for (int pass = 0; pass < 2; pass++) {
                assertThat(allRows(scan, testing)).hasSize(15_000);
            }
            assertThat(cached.cachedBytes()).isZero();
        }
    }

    @Test
    void projectionProducesOnlyTheRequestedColumnsInOrder() {
        TableSource orders = catalog.table("orders").orElseThrow();
        ExecutionPlan scan = orders.scan(new ScanRequest(Optional.of(List.of(4, 0, 3)), List.of(), 2));
        assertThat(scan.schema().getFields()).extracting(Field::getName).containsExactly("o_orderdate", "o_orderkey", "o_totalprice");
        assertThat(scan.displayLine()).isEqualTo("TpchScanExec: table=orders, sf=0.01, partitions=2, projection=[o_orderdate, o_orderkey, o_totalprice]");
        try (TestingContext testing = new TestingContext()) {
            List<List<Object>> rows = allRows(scan, testing);
            assertThat(rows).hasSize(15_000);
            // order 1: 1996-01-02; its total depends on part prices, so on the scale factor
            assertThat(rows).contains(List.of(9497, 1L, new BigDecimal("172799.49")));
            BigDecimal total = rows.stream().map(row -> (BigDecimal) row.get(2)).reduce(BigDecimal.ZERO, BigDecimal::add);
            long cents = 0;
            for (var order : TpchTable.ORDERS.createGenerator(SF, 1, 1)) {
                cents += order.getTotalPriceInCents();
            }
            assertThat(total).isEqualTo(BigDecimal.valueOf(cents, 2));
        }
    }

    /** Every partition's rows, read one partition after another. */
    private static List<List<Object>> allRows(ExecutionPlan scan, TestingContext testing) {
        List<List<Object>> rows = new ArrayList<>();
        for (int p = 0; p < scan.outputPartitioning().partitionCount(); p++) {
            try (BatchStream stream = scan.execute(p, testing.context())) {
                for (VectorSchemaRoot next = stream.next(); next != null; next = stream.next()) {
                    try (VectorSchemaRoot batch = next) {
                        rows.addAll(Batches.toRows(batch));
                    }
                }
            }
        }
        return rows;
    }

    @Test
    void emptyProjectionCountsRows() {
        ExecutionPlan scan = catalog.table("supplier").orElseThrow().scan(new ScanRequest(Optional.of(List.of()), List.of(), 2));
        assertThat(scan.schema().getFields()).isEmpty();
        try (TestingContext testing = new TestingContext()) {
            assertThat(allRows(scan, testing)).hasSize(100);
        }
    }

    @Test
    void fixedTablesUseOnePartition() {
        ExecutionPlan scan = catalog.table("nation").orElseThrow().scan(ScanRequest.all(4));
        assertThat(scan.outputPartitioning().partitionCount()).isEqualTo(1);
        assertThat(scan.partitionStatistics(OptionalInt.empty()).columns().get(0).distinctCount()).isEqualTo(Estimate.exact(25));
    }

    @Test
    void statisticsGiveKeysAndSmallDomains() {
        Statistics orders = catalog.table("orders").orElseThrow().statistics();
        assertThat(orders.columns().get(0).distinctCount()).isEqualTo(Estimate.exact(15_000));
        assertThat(orders.columns().get(2).distinctCount().value()).isEqualTo(3);
        assertThat(orders.totalBytes().isKnown()).isTrue();
        Statistics lineitem = new TpchCatalog(1).table("lineitem").orElseThrow().statistics();
        assertThat(lineitem.rowCount()).isEqualTo(Estimate.exact(6_001_215));
        Statistics odd = new TpchCatalog(0.5).table("lineitem").orElseThrow().statistics();
        assertThat(odd.rowCount()).isEqualTo(Estimate.inexact(3_000_000));
        // supplier at SF 0.01 has 100 rows, so nations are capped by nothing; region is exact
        assertThat(catalog.table("region").orElseThrow().statistics().columns().get(1).distinctCount()).isEqualTo(Estimate.exact(5));
    }

    @Test
    void closingEarlyReleasesEverything() {
        ExecutionPlan scan = catalog.table("lineitem").orElseThrow().scan(ScanRequest.all(2));
        try (TestingContext testing = new TestingContext()) {
            BatchStream stream = scan.execute(1, testing.context());
            VectorSchemaRoot first = stream.next();
            assertThat(first.getRowCount()).isEqualTo(testing.context().batchSize());
            first.close();
            stream.close();
            assertThat(stream.next()).isNull();
        }
    }
}
