package dev.quiver.engine.operator.aggregate;

import static dev.quiver.engine.operator.aggregate.AggregateFunction.AVG;
import static dev.quiver.engine.operator.aggregate.AggregateFunction.COUNT;
import static dev.quiver.engine.operator.aggregate.AggregateFunction.MAX;
import static dev.quiver.engine.operator.aggregate.AggregateFunction.MIN;
import static dev.quiver.engine.operator.aggregate.AggregateFunction.SUM;
import static dev.quiver.engine.operator.aggregate.AggregateTesting.agg;
import static dev.quiver.engine.operator.aggregate.AggregateTesting.allRows;
import static dev.quiver.engine.operator.aggregate.AggregateTesting.col;
import static dev.quiver.engine.operator.aggregate.AggregateTesting.countStar;
import static dev.quiver.engine.operator.aggregate.AggregateTesting.distinct;
import static dev.quiver.engine.operator.aggregate.AggregateTesting.finalOver;
import static dev.quiver.engine.operator.aggregate.AggregateTesting.partial;
import static dev.quiver.engine.operator.aggregate.AggregateTesting.single;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.engine.execution.ExecutionConfig;
import dev.quiver.engine.memory.MemoryPool;
import dev.quiver.engine.source.memory.MemoryScanExec;
import dev.quiver.engine.testing.TestingContext;
import dev.quiver.engine.types.QuiverTypes;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Randomized multi-key aggregations checked against DuckDB computing the same GROUP BY. */
class HashAggregateDuckDbTest {
    private static final Schema SCHEMA = new Schema(List.of(
            QuiverTypes.field("k1", QuiverTypes.UTF8, true),
            QuiverTypes.field("k2", QuiverTypes.INT32, true),
            QuiverTypes.field("k3", QuiverTypes.DATE32, true),
            QuiverTypes.field("k4", QuiverTypes.decimal(15, 2), true),
            QuiverTypes.field("k5", QuiverTypes.BOOLEAN, true),
            QuiverTypes.field("i", QuiverTypes.INT32, true),
            QuiverTypes.field("l", QuiverTypes.INT64, true),
            QuiverTypes.field("d", QuiverTypes.FLOAT64, true),
            QuiverTypes.field("m", QuiverTypes.decimal(15, 2), true),
            QuiverTypes.field("s", QuiverTypes.UTF8, true),
            QuiverTypes.field("dt", QuiverTypes.DATE32, true)));

    private static final String DATA = """
            SELECT
              CASE WHEN random() < 0.05 THEN NULL ELSE 'k' || CAST(floor(random() * 7) AS INTEGER) END AS k1,
              CASE WHEN random() < 0.05 THEN NULL ELSE CAST(floor(random() * 20) AS INTEGER) END AS k2,
              CASE WHEN random() < 0.05 THEN NULL ELSE DATE '1995-01-01' + CAST(floor(random() * 5) AS INTEGER) END AS k3,
              CASE WHEN random() < 0.05 THEN NULL ELSE CAST(floor(random() * 4) / 4 AS DECIMAL(15, 2)) END AS k4,
              CASE WHEN random() < 0.05 THEN NULL ELSE random() < 0.5 END AS k5,
              CASE WHEN random() < 0.1 THEN NULL ELSE CAST(floor(random() * 2000000 - 1000000) AS INTEGER) END AS i,
              CASE WHEN random() < 0.1 THEN NULL ELSE CAST(floor(random() * 1e13) AS BIGINT) END AS l,
              CASE WHEN random() < 0.1 THEN NULL ELSE random() * 100 END AS d,
              CASE WHEN random() < 0.1 THEN NULL ELSE CAST(round(random() * 100000 - 20000, 2) AS DECIMAL(15, 2)) END AS m,
              CASE WHEN random() < 0.1 THEN NULL ELSE 'v' || CAST(floor(random() * 300) AS INTEGER) END AS s,
              CASE WHEN random() < 0.1 THEN NULL ELSE DATE '1990-01-01' + CAST(floor(random() * 3000) AS INTEGER) END AS dt
            FROM range(60000)
            """;

    private static final String DUCK_AGGREGATES = "COUNT(*), COUNT(i), SUM(i), SUM(l), SUM(m), SUM(m), COUNT(m), SUM(d), AVG(d),"
            + " MIN(s), MAX(s), MIN(dt), MAX(dt), MIN(m), MAX(i), MIN(k3), MAX(l)";

    private static Connection duckdb;
    private static List<List<Object>> rows;

    @BeforeAll
    static void load() throws SQLException {
        duckdb = DriverManager.getConnection("jdbc:duckdb:");
        try (Statement statement = duckdb.createStatement()) {
            statement.execute("SELECT setseed(0.25)");
            statement.execute("CREATE TABLE t AS " + DATA);
        }
        rows = query("SELECT * FROM t", SCHEMA.getFields().size());
    }

    @AfterAll
    static void close() throws SQLException {
        duckdb.close();
    }

    private static List<List<Object>> query(String sql, int columns) throws SQLException {
        List<List<Object>> result = new ArrayList<>();
        try (Statement statement = duckdb.createStatement(); ResultSet rs = statement.executeQuery(sql)) {
            while (rs.next()) {
                List<Object> row = new ArrayList<>(columns);
                for (int c = 1; c <= columns; c++) {
                    row.add(normalize(rs.getObject(c)));
                }
                result.add(row);
            }
        }
        return result;
    }

    private static Object normalize(Object value) {
        if (value instanceof LocalDate date) {
            return (int) date.toEpochDay();
        }
        if (value instanceof java.sql.Date date) {
            return (int) date.toLocalDate().toEpochDay();
        }
        if (value instanceof java.math.BigInteger big) {
            return big.longValueExact();
        }
        return value;
    }

    private static List<AggregateExpr> aggregates() {
        return List.of(
                countStar(),
                agg(COUNT, col(SCHEMA, "i"), "count_i", QuiverTypes.INT64),
                agg(SUM, col(SCHEMA, "i"), "sum_i", QuiverTypes.INT64),
                agg(SUM, col(SCHEMA, "l"), "sum_l", QuiverTypes.INT64),
                agg(SUM, col(SCHEMA, "m"), "sum_m", QuiverTypes.decimal(38, 2)),
                agg(AVG, col(SCHEMA, "m"), "avg_m", QuiverTypes.decimal(15, 2)),
                agg(COUNT, col(SCHEMA, "m"), "count_m", QuiverTypes.INT64),
                agg(SUM, col(SCHEMA, "d"), "sum_d", QuiverTypes.FLOAT64),
                agg(AVG, col(SCHEMA, "d"), "avg_d", QuiverTypes.FLOAT64),
                agg(MIN, col(SCHEMA, "s"), "min_s", QuiverTypes.UTF8),
                agg(MAX, col(SCHEMA, "s"), "max_s", QuiverTypes.UTF8),
                agg(MIN, col(SCHEMA, "dt"), "min_dt", QuiverTypes.DATE32),
                agg(MAX, col(SCHEMA, "dt"), "max_dt", QuiverTypes.DATE32),
                agg(MIN, col(SCHEMA, "m"), "min_m", QuiverTypes.decimal(15, 2)),
                agg(MAX, col(SCHEMA, "i"), "max_i", QuiverTypes.INT32),
                agg(MIN, col(SCHEMA, "k3"), "min_k3", QuiverTypes.DATE32),
                agg(MAX, col(SCHEMA, "l"), "max_l", QuiverTypes.INT64));
    }

    /** DuckDB's answer, with AVG(m) computed exactly from its SUM(m) and COUNT(m) (DuckDB's AVG of a decimal is a DOUBLE). */
    private static Map<List<Object>, List<Object>> expected(List<String> keys, String extraAggregates, int extraColumns) throws SQLException {
        String keyList = String.join(", ", keys);
        String sql = "SELECT " + keyList + ", " + DUCK_AGGREGATES + extraAggregates + " FROM t GROUP BY " + keyList;
        Map<List<Object>, List<Object>> result = new HashMap<>();
        for (List<Object> row : query(sql, keys.size() + 17 + extraColumns)) {
            List<Object> values = new ArrayList<>(row.subList(keys.size(), row.size()));
            BigDecimal sum = (BigDecimal) values.get(5);
            long count = (Long) values.get(6);
            values.set(5, count == 0 ? null : sum.divide(BigDecimal.valueOf(count), 2, RoundingMode.HALF_UP));
            result.put(new ArrayList<>(row.subList(0, keys.size())), values);
        }
        return result;
    }

    private static void assertSameGroups(List<List<Object>> actual, Map<List<Object>, List<Object>> expected, int keyCount) {
        assertThat(actual).hasSize(expected.size());
        for (List<Object> row : actual) {
            List<Object> key = row.subList(0, keyCount);
            assertThat(expected).containsKey(key);
            List<Object> want = expected.get(key);
            List<Object> got = row.subList(keyCount, row.size());
            for (int c = 0; c < want.size(); c++) {
                Object w = want.get(c);
                Object g = got.get(c);
                if (w instanceof Double wd && g instanceof Double gd) {
                    assertThat(gd).as("column %d of group %s", c, key).isCloseTo(wd, org.assertj.core.data.Offset.offset(1e-9 * Math.max(1, Math.abs(wd))));
                } else {
                    assertThat(g).as("column %d of group %s", c, key).isEqualTo(w);
                }
            }
        }
    }

    @Test
    void manyKeysSingleAndTwoPhaseMatchDuckDb() throws SQLException {
        checkKeys(List.of("k1", "k2", "k3", "k4", "k5"));
    }

    @Test
    void fewKeysSingleAndTwoPhaseMatchDuckDb() throws SQLException {
        checkKeys(List.of("k5", "k1"));
    }

    @Test
    void noKeysMatchesDuckDb() throws SQLException {
        try (TestingContext tc = new TestingContext()) {
            List<Object> want = expectedNoKeys();
            assertSameGroups(tc.rows(single(new MemoryScanExec(SCHEMA, List.of(rows)), List.of(), aggregates())), Map.of(List.of(), want), 0);
        }
    }

    private static List<Object> expectedNoKeys() throws SQLException {
        List<Object> values = new ArrayList<>(query("SELECT " + DUCK_AGGREGATES + " FROM t", 17).get(0));
        values.set(5, ((BigDecimal) values.get(5)).divide(BigDecimal.valueOf((Long) values.get(6)), 2, RoundingMode.HALF_UP));
        return values;
    }

    private void checkKeys(List<String> keys) throws SQLException {
        Map<List<Object>, List<Object>> want = expected(keys, "", 0);
        try (TestingContext tc = new TestingContext(MemoryPool.unlimited(), new ExecutionConfig(1000, 2))) {
            assertSameGroups(tc.rows(single(new MemoryScanExec(SCHEMA, List.of(rows)), keys, aggregates())), want, keys.size());
            HashAggregateExec partial = partial(MemoryScanExec.split(SCHEMA, rows, 3), keys, aggregates());
            List<List<Object>> states = allRows(partial, tc.context());
            tc.reset();
            assertSameGroups(tc.rows(finalOver(partial, states)), want, keys.size());
        }
    }

    @Test
    void distinctAggregatesMatchDuckDb() throws SQLException {
        List<String> keys = List.of("k1", "k5");
        Map<List<Object>, List<Object>> want = new HashMap<>();
        String sql = "SELECT k1, k5, COUNT(DISTINCT s), SUM(DISTINCT i), COUNT(DISTINCT dt), MAX(DISTINCT s), COUNT(*) FROM t GROUP BY k1, k5";
        for (List<Object> row : query(sql, 7)) {
            want.put(new ArrayList<>(row.subList(0, 2)), new ArrayList<>(row.subList(2, 7)));
        }
        List<AggregateExpr> aggregates = List.of(
                distinct(COUNT, col(SCHEMA, "s"), "cd_s", QuiverTypes.INT64),
                distinct(SUM, col(SCHEMA, "i"), "sd_i", QuiverTypes.INT64),
                distinct(COUNT, col(SCHEMA, "dt"), "cd_dt", QuiverTypes.INT64),
                distinct(MAX, col(SCHEMA, "s"), "md_s", QuiverTypes.UTF8),
                countStar());
        try (TestingContext tc = new TestingContext(MemoryPool.unlimited(), new ExecutionConfig(777, 2))) {
            assertSameGroups(tc.rows(single(new MemoryScanExec(SCHEMA, List.of(rows)), keys, aggregates)), want, 2);
        }
    }
}
