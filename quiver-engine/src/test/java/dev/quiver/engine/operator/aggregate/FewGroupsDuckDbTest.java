package dev.quiver.engine.operator.aggregate;

import static dev.quiver.engine.operator.aggregate.AggregateFunction.SUM;
import static dev.quiver.engine.operator.aggregate.AggregateTesting.agg;
import static dev.quiver.engine.operator.aggregate.AggregateTesting.allRows;
import static dev.quiver.engine.operator.aggregate.AggregateTesting.col;
import static dev.quiver.engine.operator.aggregate.AggregateTesting.countStar;
import static dev.quiver.engine.operator.aggregate.AggregateTesting.finalOver;
import static dev.quiver.engine.operator.aggregate.AggregateTesting.partial;
import static dev.quiver.engine.operator.aggregate.AggregateTesting.single;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.engine.execution.ExecutionConfig;
import dev.quiver.engine.memory.MemoryPool;
import dev.quiver.engine.source.memory.MemoryScanExec;
import dev.quiver.engine.testing.TestingContext;
import dev.quiver.engine.types.QuiverTypes;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/**
 * The fast paths of grouping by few short strings, checked against DuckDB on the same rows: keys
 * of 0 to 12 bytes (packed into one number up to 7 bytes, compared as bytes beyond), NULL beside
 * the empty string, keys that differ only in a trailing space or in the byte after the seventh;
 * and decimal sums without NULLs over few groups (summed per batch in 64 bits first), with batches
 * of values large enough that a batch's sum could leave 64 bits, which take the 128-bit path.
 */
class FewGroupsDuckDbTest {
    private static final Schema SCHEMA = new Schema(List.of(
            QuiverTypes.field("k", QuiverTypes.UTF8, true),
            QuiverTypes.field("m", QuiverTypes.decimal(15, 2), false),
            QuiverTypes.field("big", QuiverTypes.decimal(18, 0), false)));

    private static final String DATA = """
            SELECT
              CASE WHEN random() < 0.03 THEN NULL
                   ELSE ['', 'a', 'ab', 'ab ', 'abcdefg', 'abcdefgh', 'abcdefgi', 'abcdefg ', 'A', 'abcdefghijkl', 'é', 'éé'][CAST(floor(random() * 12) AS INTEGER) + 1]
              END AS k,
              CAST(round(random() * 200000 - 50000, 2) AS DECIMAL(15, 2)) AS m,
              CAST(CASE WHEN i BETWEEN 20000 AND 28000 THEN floor(random() * 9e17) - 4e17 ELSE floor(random() * 1000) END AS DECIMAL(18, 0)) AS big
            FROM range(40000) r(i)
            """;

    @Test
    void fewShortStringGroupsAndTheirDecimalSumsMatchDuckDb() throws SQLException {
        try (Connection duckdb = DriverManager.getConnection("jdbc:duckdb:")) {
            try (Statement statement = duckdb.createStatement()) {
                statement.execute("SELECT setseed(0.5)");
                statement.execute("CREATE TABLE t AS " + DATA);
            }
            List<List<Object>> rows = query(duckdb, "SELECT k, m, big FROM t ORDER BY rowid", 3);
            Map<List<Object>, List<Object>> expected = new HashMap<>();
            for (List<Object> row : query(duckdb, "SELECT k, count(*), sum(m), sum(big) FROM t GROUP BY k", 4)) {
                expected.put(row.subList(0, 1), row.subList(1, 4));
            }
            assertThat(expected).hasSize(13);
            List<AggregateExpr> aggregates = List.of(countStar(), agg(SUM, col(SCHEMA, "m"), "sum_m", QuiverTypes.decimal(38, 2)),
                    agg(SUM, col(SCHEMA, "big"), "sum_big", QuiverTypes.decimal(38, 0)));
            try (TestingContext tc = new TestingContext(MemoryPool.unlimited(), new ExecutionConfig(1000, 2))) {
                assertSameGroups(tc.rows(single(new MemoryScanExec(SCHEMA, List.of(rows)), List.of("k"), aggregates)), expected);
                HashAggregateExec partial = partial(MemoryScanExec.split(SCHEMA, rows, 3), List.of("k"), aggregates);
                List<List<Object>> states = allRows(partial, tc.context());
                tc.reset();
                assertSameGroups(tc.rows(finalOver(partial, states)), expected);
            }
        }
    }

    private static void assertSameGroups(List<List<Object>> actual, Map<List<Object>, List<Object>> expected) {
        Map<List<Object>, List<Object>> groups = new HashMap<>();
        for (List<Object> row : actual) {
            assertThat(groups.put(row.subList(0, 1), row.subList(1, row.size()))).as("one row per group %s", row.get(0)).isNull();
        }
        assertThat(groups).isEqualTo(expected);
    }

    private static List<List<Object>> query(Connection duckdb, String sql, int columns) throws SQLException {
        List<List<Object>> result = new ArrayList<>();
        try (Statement statement = duckdb.createStatement(); ResultSet rs = statement.executeQuery(sql)) {
            while (rs.next()) {
                List<Object> row = new ArrayList<>(columns);
                for (int c = 1; c <= columns; c++) {
                    row.add(rs.getObject(c));
                }
                result.add(row);
            }
        }
        return result;
    }
}
