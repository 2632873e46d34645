package dev.quiver.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.session.ExecutionModes.Mode;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The syntax docs/sql.md adds to Calcite's (GROUP BY ALL, ORDER BY ALL, SELECT * EXCLUDE/REPLACE,
 * INTERSECT ALL / EXCEPT ALL, LIMIT/OFFSET/FETCH forms), compared with DuckDB on the same rows, on a single node and on 4 local
 * workers with static and adaptive task counts. A query with ORDER BY compares in order, any other
 * as a multiset.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SqlSyntaxTest {
    private static final List<String> QUERIES = List.of(
            // GROUP BY ALL: every select item without an aggregate and not a constant is a key
            "select k, count(*) from t1 group by all",
            "select k, name, sum(amount), count(d) from t1 group by all",
            "select k + 1, upper(name), min(id) from t1 group by all",
            "select 1, k, count(*) from t1 group by all",
            "select count(*), sum(amount) from t1 group by all",
            "select k from t1 group by all",
            "select * from t2 group by all",
            "select k as key, count(*) as c from t1 group by all having count(*) > 1",
            "select t1.k, t2.v, count(*) from t1 join t2 on t1.k = t2.k group by all",
            "select k, count(*) from (select k, name from t1 where id > 2) s group by all",
            "with c as (select k, sum(amount) as total from t1 group by all) select * from c where total > 0",
            // ORDER BY ALL: every output column, left to right
            "select k, name from t1 order by all",
            "select k, name from t1 order by all desc",
            "select k, name from t1 order by all nulls first",
            "select k, id from t1 order by all desc nulls last",
            "select * from t1 order by all",
            "select * from t2 order by all desc",
            "select k, count(*) from t1 group by all order by all",
            "select k, count(*) from t1 group by all order by all limit 3",
            "select k from t1 union select qty from t2 order by all",
            "select * from (select k, name from t1 order by all limit 4) s",
            "with c as (select k, v from t2) select * from c order by all",
            // SELECT * EXCLUDE / REPLACE
            "select * exclude (name, d) from t1",
            "select * exclude (flag) from t1 order by id",
            "select t1.* exclude (name), t2.v from t1 join t2 on t1.k = t2.k",
            "select * replace (id * 10 as id, upper(name) as name) from t1",
            "select * exclude (v) from t2 order by all",
            // INTERSECT ALL / EXCEPT ALL: multiset semantics, NULLs equal
            "select k from t1 intersect all select k from t2",
            "select k from t1 except all select k from t2",
            "select k from t2 except all select k from t1",
            "select k, name from t1 intersect all select k, v from t2",
            "select k, flag from t1 intersect all select k, flag from t1 where id > 3",
            "select k, flag from t1 except all select k, flag from t1 where id > 3",
            "select k from t1 except all select k from empty_t",
            "select k from empty_t intersect all select k from t1",
            "select k from t1 intersect all select k from t1 intersect all select k from t2",
            "select k from t1 except all select k from t2 except all select k from t2",
            "select name from t1 except all select v from t2 order by 1",
            "select count(*) from (select k from t1 union all select k from t1 except all select k from t2) x",
            "select k from t1 intersect all (select k from t2 union all select k from t2)",
            "select k, count(*) from (select k from t1 intersect all select k from t1) x group by k",
            "select k from t1 intersect select k from t2",
            "select d from t1 except all select d from t1 where flag",
            // WITH RECURSIVE: seeds, steps over the last iteration, UNION ending a cycle, joins in the step
            "with recursive r(n) as (select 1 union all select n + 1 from r where n < 10) select * from r",
            "with recursive r(n) as (select 1 union all select n + 1 from r where n < 300) select count(*), sum(n), min(n), max(n) from r",
            "with recursive r(n, s) as (select id, name from t1 where id <= 2 union all select n + 10, s from r where n < 30) select * from r",
            "with recursive fib(i, a, b) as (select 1, 0, 1 union all select i + 1, b, a + b from fib where i < 40) select i, a from fib",
            "with recursive edges(a, b) as (values (1, 2), (2, 3), (3, 4), (4, 2), (5, 6)),"
                    + " reach(n) as (select 1 union select b from edges join reach on edges.a = reach.n) select * from reach",
            "with recursive r(k, depth) as (select k, 0 from t2 where k = 10 union all select t1.k + 10, depth + 1 from r join t1 on t1.k = r.k"
                    + " where depth < 5) select * from r",
            "with recursive r(k) as (select k from t2 where k = 10 union select t1.k + 10 from r join t1 on t1.k = r.k) select * from r order by k",
            "with recursive r(n) as (select 1 union all select n + 1 from r where n < 5) select * from r order by n desc",
            "with recursive r(n) as (select 1 union all select n + 1 from r where n < 6) select n % 3, count(*), sum(n) from r group by n % 3",
            "with recursive r(n) as (select 1 union all select n + 1 from r where n < 4) select a.n, b.n from r a join r b on a.n = b.n + 1",
            "with recursive a(n) as (select 1 union all select n + 1 from a where n < 3),"
                    + " b(m) as (select n * 10 from a union all select m + 1 from b where m < 32) select * from b",
            "with recursive r(n) as (select k from t1 where k is not null union select n + 5 from r where n < 40) select * from r",
            "with recursive r(n) as (select 1 union all select n + 1 from r where n < 3) select * from t1 where id in (select n from r)",
            "with recursive r(n) as (select 1 from empty_t union all select n + 1 from r) select * from r",
            "with recursive r(n) as (select 1 union all select n + 1 from r) select * from r limit 5",
            // LIMIT, OFFSET, FETCH
            "select id from t1 order by id limit 3",
            "select id from t1 order by id limit 3 offset 2",
            "select id from t1 order by id offset 2",
            "select id from t1 order by id fetch first 3 rows only",
            "select id from t1 order by id offset 2 rows fetch next 2 rows only",
            "select id from t1 order by id limit 0",
            "select id from t1 order by id limit 100 offset 9",
            "select id from t1 order by id offset 20",
            "select k, count(*) from t1 group by k order by count(*) desc, k limit 2");

    private MemoryCatalog catalog;
    private DuckDbOracle duckdb;
    private ExecutionModes modes;

    @BeforeAll
    void open() throws SQLException {
        catalog = TestTables.catalog();
        duckdb = new DuckDbOracle(catalog);
        modes = new ExecutionModes(catalog);
    }

    @AfterAll
    void close() throws SQLException {
        try (DuckDbOracle closedLast = duckdb; ExecutionModes closedFirst = modes) {
            modes.assertNothingLeft();
        }
    }

    static Stream<Arguments> queries() {
        return QUERIES.stream().flatMap(sql -> Stream.of(Mode.values()).map(mode -> Arguments.of(sql, mode)));
    }

    @ParameterizedTest(name = "{1}: {0}")
    @MethodSource("queries")
    void matchesDuckDb(String sql, Mode mode) throws SQLException {
        List<List<Object>> expected = duckdb.query(sql);
        List<List<Object>> actual = DuckDbOracle.normalize(modes.run(mode, sql).rows());
        if (!sql.contains("order by") || sql.contains(") s")) {
            expected = sorted(expected);
            actual = sorted(actual);
        }
        assertThat(actual).as(sql).isEqualTo(expected);
    }

    static List<List<Object>> sorted(List<List<Object>> rows) {
        List<List<Object>> copy = new ArrayList<>(rows);
        copy.sort(Comparator.comparing(Objects::toString));
        return copy;
    }
}
