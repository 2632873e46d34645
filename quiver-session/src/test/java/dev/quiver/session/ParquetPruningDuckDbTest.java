package dev.quiver.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.source.parquet.ParquetScanExec;
import dev.quiver.engine.source.parquet.ParquetTable;
import dev.quiver.engine.source.parquet.ParquetTestData;
import dev.quiver.engine.source.parquet.ParquetWriteOptions;
import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.engine.spi.Catalog;
import dev.quiver.engine.spi.TableSource;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Row-group pruning through SQL: lineitem at SF 0.01 is stored sorted by l_orderkey in small row
 * groups, so a filter on l_orderkey reads few of them; results equal DuckDB reading the same files.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ParquetPruningDuckDbTest {
    @TempDir
    static Path directory;

    private ParquetTable lineitem;
    private QuerySession session;
    private DuckDbOracle duckdb;
    private ExecutionPlan lastPlan;

    @BeforeAll
    void setUp() throws SQLException {
        Path tableDirectory = directory.resolve("lineitem");
        ParquetTestData.write(new TpchCatalog(0.01).table("lineitem").orElseThrow(), tableDirectory, 2,
                ParquetWriteOptions.defaults().withRowGroupRows(4096));
        lineitem = ParquetTable.open("lineitem", tableDirectory);
        Catalog catalog = new Catalog() {
            @Override
            public Optional<TableSource> table(String name) {
                return name.equalsIgnoreCase("lineitem") ? Optional.of(lineitem) : Optional.empty();
            }

            @Override
            public Set<String> tableNames() {
                return Set.of("lineitem");
            }
        };
        session = QuerySession.builder().catalog(catalog).targetPartitions(2).build();
        duckdb = new DuckDbOracle(new MemoryCatalog());
    }

    @AfterAll
    void tearDown() throws SQLException {
        try (DuckDbOracle closedLast = duckdb; QuerySession closedFirst = session) {
            // the session's close fails on any leaked buffer
        }
    }

    @Test
    void rangeOnTheSortKeyReadsFewRowGroups() throws SQLException {
        assertThat(lineitem.rowGroupCount()).isGreaterThanOrEqualTo(14);
        ParquetScanExec scan = assertSameAsDuckDb(
                "SELECT l_orderkey, l_linenumber, l_quantity, l_extendedprice, l_shipdate, l_comment FROM %s "
                        + "WHERE l_orderkey BETWEEN 10000 AND 12000 ORDER BY l_orderkey, l_linenumber");
        assertThat(scan.rowGroupsRead()).as(dev.quiver.engine.execution.PlanDisplay.indent(lastPlan)).isBetween(1L, 2L);
        assertThat(scan.rowGroupsPruned()).isEqualTo(lineitem.rowGroupCount() - scan.rowGroupsScanned());
    }

    @Test
    void disjunctionOfRangesReadsOnlyTheEnds() throws SQLException {
        ParquetScanExec scan = assertSameAsDuckDb(
                "SELECT count(*), sum(l_extendedprice), min(l_shipdate), max(l_comment) FROM %s "
                        + "WHERE l_orderkey < 300 OR l_orderkey > 59000");
        assertThat(scan.rowGroupsRead()).as(dev.quiver.engine.execution.PlanDisplay.indent(lastPlan)).isBetween(2L, 4L);
    }

    @Test
    void equalityOnAStringReadsEveryRowGroupButStaysCorrect() throws SQLException {
        ParquetScanExec scan = assertSameAsDuckDb(
                "SELECT l_returnflag, l_linestatus, count(*), sum(l_quantity) FROM %s "
                        + "WHERE l_shipmode = 'MAIL' AND l_shipdate >= DATE '1995-01-01' GROUP BY l_returnflag, l_linestatus "
                        + "ORDER BY l_returnflag, l_linestatus");
        assertThat(scan.rowGroupsRead()).as(dev.quiver.engine.execution.PlanDisplay.indent(lastPlan)).isEqualTo(lineitem.rowGroupCount());
    }

    @Test
    void filterOutsideTheDataReadsNothing() throws SQLException {
        ParquetScanExec scan = assertSameAsDuckDb("SELECT count(*) FROM %s WHERE l_orderkey > 100000000");
        assertThat(scan.rowGroupsRead()).as(dev.quiver.engine.execution.PlanDisplay.indent(lastPlan)).isZero();
    }

    /** Runs the query on Quiver and DuckDB (over read_parquet of the same files); returns Quiver's scan. */
    private ParquetScanExec assertSameAsDuckDb(String query) throws SQLException {
        List<List<Object>> expected = duckdb.query(String.format(query,
                "read_parquet('" + directory.resolve("lineitem").resolve("*.parquet") + "')"));
        try (QueryHandle handle = session.execute(String.format(query, "lineitem"))) {
            QueryResult result = handle.collect();
            assertThat(DuckDbOracle.normalize(result.rows())).isEqualTo(expected);
            lastPlan = handle.plan();
            return findScan(handle.plan());
        }
    }

    private static ParquetScanExec findScan(ExecutionPlan plan) {
        List<ParquetScanExec> found = new ArrayList<>();
        collect(plan, found);
        assertThat(found).hasSize(1);
        return found.get(0);
    }

    private static void collect(ExecutionPlan plan, List<ParquetScanExec> found) {
        if (plan instanceof ParquetScanExec scan) {
            found.add(scan);
        }
        plan.children().forEach(child -> collect(child, found));
    }
}
