package dev.quiver.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.operator.window.WindowExec;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import org.apache.arrow.vector.types.pojo.Field;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Window functions end to end — SQL through Calcite, the planner's sorts and repartitions, and
 * WindowExec — compared with DuckDB running the same query over the same rows. The session uses
 * three partitions and small batches, so window partitions are hash-partitioned and straddle
 * batches. Order-sensitive functions order by the unique {@code id} last, so that both engines see
 * one order.
 */
class WindowSqlTest {
    private static MemoryCatalog catalog;
    private static DuckDbOracle duckdb;
    private QuerySession session;

    @BeforeAll
    static void loadOracle() throws SQLException {
        catalog = WindowTables.catalog();
        duckdb = new DuckDbOracle(catalog);
    }

    @AfterAll
    static void closeOracle() throws SQLException {
        duckdb.close();
    }

    @BeforeEach
    void open() {
        session = QuerySession.builder().catalog(catalog).targetPartitions(3).batchSize(37).build();
    }

    @AfterEach
    void close() {
        assertThat(session.memoryPool().used()).isZero();
        session.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        // ranking
        "select id, row_number() over (order by id) from w",
        "select id, row_number() over (partition by g order by o, id) from w",
        "select id, row_number() over (partition by g, h order by v desc, id) from w",
        "select id, rank() over (order by o) from w",
        "select id, rank() over (partition by g order by o desc) from w",
        "select id, dense_rank() over (partition by h order by o) from w",
        "select id, rank() over (partition by g order by o nulls first), dense_rank() over (partition by g order by o nulls first) from w",
        "select id, percent_rank() over (partition by g order by v) from w",
        "select id, cume_dist() over (partition by g order by v desc nulls last) from w",
        "select id, percent_rank() over (order by h), cume_dist() over (order by h) from w",
        "select id, ntile(4) over (partition by g order by id) from w",
        "select id, ntile(1000) over (partition by h order by id) from w",
        "select id, ntile(3) over (order by v, id) from w",
        "select id, rank() over (order by d desc), dense_rank() over (order by d desc) from w",
        // offsets
        "select id, lag(v) over (partition by g order by id) from w",
        "select id, lead(v, 2) over (partition by g order by id) from w",
        "select id, lag(v, 3, -1) over (order by id) from w",
        "select id, lead(h, 1, 'none') over (partition by g order by o, id) from w",
        "select id, lag(amount, 1, 0) over (partition by h order by id) from w",
        "select id, lag(v, 0) over (order by id) from w",
        "select id, lag(d) over (partition by g order by id), lead(d) over (partition by g order by id) from w",
        // frame values
        "select id, first_value(v) over (partition by g order by id) from w",
        "select id, last_value(v) over (partition by g order by id) from w",
        "select id, last_value(v) over (partition by g order by id rows between unbounded preceding and unbounded following) from w",
        "select id, first_value(h) over (partition by g order by id rows between 2 preceding and 2 following) from w",
        "select id, nth_value(v, 2) over (partition by g order by id) from w",
        "select id, nth_value(v, 3) over (partition by h order by id rows between 1 preceding and 5 following) from w",
        "select id, first_value(v) over (order by id rows between 3 following and 10 following) from w",
        "select id, last_value(v) over (order by id rows between 10 preceding and 3 preceding) from w",
        // aggregates: default frames
        "select id, sum(v) over (partition by g) from w",
        "select id, count(*) over (partition by g), count(v) over (partition by g) from w",
        "select id, sum(v) over (partition by g order by o) from w",
        "select id, sum(v) over (order by o desc) from w",
        "select id, min(v) over (partition by h order by o), max(v) over (partition by h order by o) from w",
        "select id, min(h) over (partition by g order by id), max(h) over (partition by g) from w",
        "select id, sum(amount) over (partition by g order by d) from w",
        "select id, avg(v) over (partition by g) from w",
        "select id, avg(f) over (partition by h order by o) from w",
        "select id, sum(f) over (partition by g order by id) from w",
        "select id, count(*) over () from w",
        "select id, sum(v) over () from w",
        "select id, max(d) over (partition by g order by o) from w",
        // ROWS frames
        "select id, sum(v) over (partition by g order by id rows between 2 preceding and current row) from w",
        "select id, sum(v) over (partition by g order by id rows between 1 preceding and 1 following) from w",
        "select id, count(*) over (partition by g order by id rows between current row and unbounded following) from w",
        "select id, max(v) over (order by id rows between 5 preceding and 2 preceding) from w",
        "select id, min(v) over (order by id rows between 3 following and 6 following) from w",
        "select id, sum(v) over (partition by g order by id rows between 1000 preceding and 1000 following) from w",
        "select id, avg(v) over (partition by h order by id rows 3 preceding) from w",
        "select id, count(v) over (partition by g order by id rows between unbounded preceding and 1 preceding) from w",
        // RANGE frames
        "select id, sum(v) over (partition by g order by o range between 2 preceding and 2 following) from w",
        "select id, count(*) over (partition by g order by o range between current row and 5 following) from w",
        "select id, sum(v) over (order by o desc range between 3 preceding and current row) from w",
        "select id, count(*) over (order by o nulls first range between 1 preceding and 1 following) from w",
        "select id, sum(v) over (partition by h order by o range between unbounded preceding and 3 preceding) from w",
        "select id, count(*) over (order by amount range between 10.5 preceding and 10.5 following) from w",
        "select id, count(*) over (order by f range between 0.5 preceding and current row) from w",
        "select id, count(*) over (partition by g order by d range between interval '7' day preceding and current row) from w",
        "select id, sum(v) over (order by d desc range between interval '3' day preceding and interval '3' day following) from w",
        "select id, count(*) over (partition by g order by d range between interval '1' month preceding and current row) from w",
        "select id, count(*) over (order by o range between 100 preceding and 100 following) from w",
        // exclusions
        "select id, sum(v) over (partition by g order by id rows between 2 preceding and 2 following exclude current row) from w",
        "select id, count(*) over (partition by g order by o range between unbounded preceding and current row exclude group) from w",
        "select id, sum(v) over (partition by g order by o range between 1 preceding and 1 following exclude ties) from w",
        "select id, count(*) over (partition by g order by o rows between unbounded preceding and unbounded following exclude no others) from w",
        // DISTINCT
        "select id, count(distinct h) over (partition by g) from w",
        "select id, sum(distinct v) over (partition by h) from w",
        "select id, count(distinct o) over (partition by g order by id) from w",
        "select id, count(distinct h) over (partition by g order by id rows between 3 preceding and 3 following) from w",
        // several specifications, named windows, QUALIFY, expressions
        "select id, row_number() over (partition by g order by id), sum(v) over (partition by h order by o), count(*) over () from w",
        "select id, rank() over w1, sum(v) over w1, min(v) over w2 from w window w1 as (partition by g order by o), w2 as (partition by h)",
        "select id, sum(v) over (w rows between 1 preceding and current row) from w window w as (partition by g order by id)",
        "select id, v - lag(v) over (partition by g order by id) from w",
        "select id, cast(v as double) / sum(v) over (partition by g) from w where v > 0",
        "select id from w qualify row_number() over (partition by g order by v desc, id) = 1",
        "select id, v from w qualify rank() over (partition by h order by v) <= 2",
        "select g, sum(v), rank() over (order by sum(v) desc) from w group by g",
        "select g, h, count(*), sum(count(*)) over (partition by g) from w group by g, h",
        "select id, sum(v) over (partition by g + 1 order by o * 2) from w",
        "select * from (select id, g, row_number() over (partition by g order by id) as rn from w) x where rn <= 3",
        "select t1.id, t2.v, row_number() over (partition by t1.k order by t1.id, t2.v) from t1 join t2 on t1.k = t2.k",
        "select id, row_number() over (order by id) from w where id > 1000",
        // Calcite decorrelates LIMIT in a correlated sub-query with ROW_NUMBER
        "select id from t1 where exists (select * from t2 where t2.k = t1.k limit 1)",
        "select id, (select qty from t2 where t2.k = t1.k order by qty desc nulls last, v limit 1) from t1",
        "select g, row_number() over (order by g), sum(v) over (partition by g) from w_empty",
        // empty partitions of the plan: one window partition key, so two of the three hash partitions get no rows;
        // a filter leaving most batches empty
        "select id, sum(v) over (partition by g order by id), row_number() over (partition by g order by id) from w where g = 2",
        "select id, rank() over (partition by g order by o), sum(v) over (partition by g order by o rows between 1 preceding and 1 following) from w where id % 97 = 0",
        "select id, count(*) over (partition by g order by o range between 5 preceding and 5 following) from w where id > 590",
        "select id, sum(v) over (partition by g order by id rows between 1 preceding and 1 following), sum(v) over (partition by g order by id) from w",
        "select id, count(*) over (partition by g order by o), count(*) over (partition by g order by o, id rows between unbounded preceding and current row) from w where o is not null",
        // GROUPS frames (Calcite does not parse them; Quiver does)
        "select id, sum(v) over (partition by g order by o groups between 1 preceding and 1 following) from w",
        "select id, count(*) over (order by o groups between current row and 2 following) from w",
        "select id, count(*) over (partition by h order by o desc groups between unbounded preceding and 1 preceding) from w",
        "select id, sum(v) over (partition by g order by o groups 2 preceding) from w",
        "select id, count(*) over (partition by g order by o groups between 1 preceding and 1 following exclude group) from w",
        "select id, max(v) over (partition by g order by o groups between current row and current row) from w",
        "select id, count(*) over (order by o groups between 1 following and 3 following) from w",
    })
    void matchesDuckDb(String sql) throws SQLException {
        assertSameRows(sql, false);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "select id, row_number() over (partition by g order by id) as rn from w order by id limit 20",
        "select g, sum(v) as total, rank() over (order by sum(v) desc) as r from w group by g order by r, g",
    })
    void matchesDuckDbInOrder(String sql) throws SQLException {
        assertSameRows(sql, true);
    }

    /** A window passes its input's columns on; those no one reads are pruned before the scan, the repartition and the sort. */
    @Test
    void windowInputCarriesOnlyTheColumnsItAndItsConsumersRead() {
        String sql = "select id, sum(v) over (partition by g order by o) from w";
        try (QueryHandle handle = session.execute(sql)) {
            WindowExec window = find(handle.plan(), WindowExec.class);
            assertThat(window.input().schema().getFields()).extracting(Field::getName).containsExactlyInAnyOrder("id", "g", "o", "v");
            handle.collect();
        }
    }

    private static <T extends ExecutionPlan> T find(ExecutionPlan plan, Class<T> type) {
        if (type.isInstance(plan)) {
            return type.cast(plan);
        }
        for (ExecutionPlan child : plan.children()) {
            T found = find(child, type);
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    private void assertSameRows(String sql, boolean ordered) throws SQLException {
        List<List<Object>> expected = duckdb.query(sql);
        List<List<Object>> actual = DuckDbOracle.normalize(session.executeScript(sql).rows());
        if (!ordered) {
            expected = sorted(expected);
            actual = sorted(actual);
        }
        assertThat(actual).as(sql).isEqualTo(expected);
    }

    private static List<List<Object>> sorted(List<List<Object>> rows) {
        List<List<Object>> copy = new ArrayList<>(rows);
        copy.sort(Comparator.comparing(Objects::toString));
        return copy;
    }
}
