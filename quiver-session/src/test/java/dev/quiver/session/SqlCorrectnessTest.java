package dev.quiver.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * End-to-end SQL over a small in-memory catalog with NULLs, duplicates and an empty table,
 * compared with DuckDB running the same query over the same rows. Queries without ORDER BY
 * compare as multisets; queries with one compare in order.
 */
class SqlCorrectnessTest {
    private static MemoryCatalog catalog;
    private static DuckDbOracle duckdb;
    private QuerySession session;

    @BeforeAll
    static void loadOracle() throws SQLException {
        catalog = TestTables.catalog();
        duckdb = new DuckDbOracle(catalog);
    }

    @AfterAll
    static void closeOracle() throws SQLException {
        duckdb.close();
    }

    @BeforeEach
    void open() {
        session = QuerySession.builder().catalog(catalog).targetPartitions(3).batchSize(3).build();
    }

    @AfterEach
    void close() {
        assertThat(session.memoryPool().used()).isZero();
        session.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "select id, name from t1",
        "select t1.id, t2.v from t1 join t2 on t1.k = t2.k",
        "select t1.id, t2.v from t1 left join t2 on t1.k = t2.k",
        "select t1.id, t2.v from t1 right join t2 on t1.k = t2.k",
        "select t1.id, t2.v from t1 full join t2 on t1.k = t2.k",
        "select t1.id, t2.v from t1, t2",
        "select id from t1 where k in (select k from t2)",
        "select id from t1 where exists (select * from t2 where t2.k = t1.k)",
        "select id from t1 where not exists (select * from t2 where t2.k = t1.k)",
        "select k, count(*), count(name), sum(amount), min(name), max(d) from t1 group by k",
        "select count(*), count(k), sum(amount), min(amount), max(name) from t1",
        "select count(*), count(k), sum(x), min(x), max(k) from empty_t",
        "select k, count(*), sum(x) from empty_t group by k",
        "select name, sum(amount) from t1 where k is null group by name",
        "select count(distinct k), count(distinct name) from t1",
        "select k, count(distinct name) from t1 group by k",
        "select distinct k from t1",
        "select k, count(*) from t1 group by 1",
        "select k as key, count(*) from t1 group by key",
        "select k from t1 union select k from t2",
        "select k from t1 union all select k from t2",
        "select k from t1 intersect select k from t2",
        "select k from t1 except select k from t2",
        "select k, name from t1 except select k, v from t2",
        "select a.id, b.qty from t1 a join t2 b on a.k is not distinct from b.k",
        "select id, (select count(*) from t2 where t2.k is not distinct from t1.k) from t1",
        "select a.id, b.id from t1 a join t1 b on a.k = b.k and a.id < b.id",
        "select t1.id, e.x from t1 left join empty_t e on t1.k = e.k",
        // joins with residual conditions and without equi-keys
        "select t1.id, t2.v from t1 left join t2 on t1.k = t2.k and t2.qty > 1",
        "select t1.id, t2.v from t1 right join t2 on t1.k = t2.k and t1.id > 1",
        "select t1.id, t2.v from t1 full join t2 on t1.k = t2.k and t1.id <> t2.qty",
        "select t1.id, t2.v from t1 join t2 on t1.k = t2.k or t1.id = t2.qty",
        "select t1.id, t2.v from t1 left join t2 on t1.id < t2.qty",
        "select t1.id, t2.v from t1 full join t2 on t1.id = t2.qty + 100",
        "select id from t1 where exists (select * from t2 where t2.k = t1.k and t2.qty <> t1.id)",
        "select id from t1 where not exists (select * from t2 where t2.k = t1.k and t2.qty > t1.id)",
        "select count(*) from (select distinct k, flag from t1) x",
        "select k, max(c) from (select k, name, count(*) as c from t1 group by k, name) x group by k",
        // three-valued logic in WHERE
        "select id from t1 where flag",
        "select id from t1 where not flag",
        "select id from t1 where flag is not true",
        "select id from t1 where flag is false",
        "select id from t1 where flag or k > 20",
        "select id from t1 where not (flag and k > 10)",
        "select id from t1 where k <> 10",
        "select id from t1 where k is distinct from 10",
        "select id from t1 where k not in (select k from t2)",
        "select id from t1 where k not in (select k from t2 where k is not null)",
        "select id, (select count(*) from t2 where t2.k = t1.k) from t1",
        "select id from t1 where amount > (select avg(amount) from t1)",
        // CASE, IN, LIKE
        "select id, case when amount > 5 then 1 when amount > 0 then 2 else 3 end from t1",
        "select id, case k when 10 then 'ten' end from t1",
        "select id, case k when 10 then 'ten' when 20 then 'two' end from t1",
        "select id, case when amount > 5 then 'big' else 'other' end from t1",
        "select 'a' as s union all select 'bc'",
        "select id, case when flag then amount else -amount end from t1",
        "select id from t1 where k in (10, 30, 99)",
        "select id from t1 where k not in (10, 30)",
        "select id from t1 where name in ('apple', 'fig%', 'nope')",
        "select id from t1 where name like 'a%'",
        "select id from t1 where name like '%e%'",
        "select id from t1 where name not like '%a%'",
        "select id from t1 where name like '_ate'",
        "select id from t1 where name like 'fig!%' escape '!'",
        "select id from t1 where name like 'elder\\_%' escape '\\'",
        // scalar functions and arithmetic
        "select upper(name), lower(name), substring(name, 2, 3), char_length(name), name || '!' from t1",
        "select trim('  x  '), coalesce(name, 'none'), coalesce(k, id) from t1",
        "select abs(amount), -amount, amount * 2, amount + k, k * 3 - id from t1",
        "select extract(year from d), extract(month from d), extract(day from d) from t1",
        "select cast(d + interval '1' month as date), cast(d - interval '30' day as date), cast(d + interval '1' year as date) from t1",
        "select id from t1 where d >= date '2024-01-01' and d < date '2024-03-01'",
        "select id from t1 where d between date '2024-01-01' and date '2024-02-29'",
        "select cast(amount as integer), cast(id as decimal(5,1)), cast(k as varchar) from t1",
        "select count(*), sum(amount), max(d) from t1 where id > 100",
        "select k, sum(amount) from t1 group by k having count(*) > 1",
        "select k, avg(amount) from t1 where amount > 0 and k <> 20 group by k",
        "select k, avg(id), avg(k) from t1 group by k",
        "select avg(qty) from t2",
        "select k, sum(amount) filter (where flag), count(*) filter (where amount > 2), count(name) filter (where not flag) from t1 group by k",
        "select id from t1 where k = (select k from t2 where v = 'thirty')",
        "select id, (select v from t2 where t2.qty = t1.id) from t1",
    })
    void matchesDuckDb(String sql) throws SQLException {
        assertSameRows(sql, false);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "select id, amount from t1 order by amount nulls first, id",
        "select id, amount from t1 order by amount desc nulls last, id",
        "select id, amount from t1 order by amount, id",
        "select id, amount from t1 order by amount desc, id desc",
        "select id, name from t1 order by name limit 4",
        "select id, name from t1 order by id limit 3 offset 2",
        "select id from t1 order by id offset 8",
        "select k, count(*) as c from t1 group by k order by c desc, k nulls first",
        "select id from t1 order by id limit 0",
        "select id from t1 order by amount * -1 nulls last, id",
        "select distinct name from t1 order by name nulls first limit 5 offset 1",
        "select id from t1 order by id offset 20",
    })
    void matchesDuckDbInOrder(String sql) throws SQLException {
        assertSameRows(sql, true);
    }

    /** The same joins with both sides hash-partitioned (no collected build side), 3 partitions. */
    @ParameterizedTest
    @ValueSource(strings = {
        "select t1.id, t2.v from t1 join t2 on t1.k = t2.k",
        "select t1.id, t2.v from t1 left join t2 on t1.k = t2.k",
        "select t1.id, t2.v from t1 right join t2 on t1.k = t2.k",
        "select t1.id, t2.v from t1 full join t2 on t1.k = t2.k",
        "select id from t1 where k in (select k from t2)",
        "select id from t1 where not exists (select * from t2 where t2.k = t1.k)",
        "select a.id, b.id from t1 a join t1 b on a.k = b.k and a.id < b.id",
        "select t2.v, count(*) from t1 join t2 on t1.k = t2.k group by t2.v",
        "select k from t1 intersect select k from t2",
        "select a.id, b.qty from t1 a join t2 b on a.k is not distinct from b.k",
        "select t1.id, t2.v from t1 join t2 on t1.id = t2.k / 10",
        "select t1.id, t2.v from t1 join t2 on t1.id = t2.k",
        "select t1.id, t2.v from t1 join t2 on t1.amount = t2.qty",
        "select t1.id, t2.v from t1 left join t2 on t1.id = t2.qty and t1.k = t2.k",
    })
    void partitionedJoinsMatchDuckDb(String sql) throws SQLException {
        session.executeScript("SET hash_join_collect_left_max_rows = 0");
        assertThat((String) session.executeScript("explain " + sql).rows().get(0).get(0)).contains("mode=PARTITIONED");
        assertSameRows(sql, false);
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
