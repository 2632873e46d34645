package dev.quiver.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An unaliased column is named after its expression the way DuckDB names it (docs/sql.md, "Column
 * names"): the names of each query's result equal DuckDB's for the same query over the same tables.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ColumnNamesTest {
    private DuckDbOracle duckdb;
    private QuerySession session;

    @BeforeAll
    void open() throws SQLException {
        MemoryCatalog catalog = TestTables.catalog();
        duckdb = new DuckDbOracle(catalog);
        session = QuerySession.builder().catalog(catalog).targetPartitions(2).build();
    }

    @AfterAll
    void close() throws SQLException {
        try (DuckDbOracle closedLast = duckdb) {
            session.close();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {
        // unnest, in a select list and as a table
        "select unnest([1, 2]), unnest(NULL), unnest([3]) as x",
        "select * from unnest([1, 2])",
        "select * from unnest([1, 2]) t",
        "select * from unnest([1, 2]) as t(x)",
        "select u.* from unnest(['a']) u",
        "select * from t1 cross join unnest([1, 2]) where id < 3",
        "select unnest.unnest, unnest from unnest([5])",
        // aggregates
        "select sum(amount), count(*), count(k), SUM(K), Sum(Id), min(d), max(name), avg(id) from t1",
        "select count(distinct k), sum(distinct id), avg(distinct amount) from t1",
        "select sum(amount) filter (where id > 3), count(*) filter (where flag and k > 10) from t1",
        "select count(*) + 1, sum(id) / count(*), 2 * max(id), min(id) - max(id), abs(sum(amount)) from t1",
        "select k, count(*) from t1 group by k",
        // arithmetic, unary operators, precedence
        "select id + 1, id * 2 + 1, id - k, id / 2, id % 3, (id + k) * 2, id + k + 1, id - (k - 1) from t1",
        "select -id, - (id + 1), -amount * 2, 1 - -id, +id from t1",
        // literals
        "select 1, 'a', 'it''s', 1.5, 1.50, .5, 100, 10000000000, true, false, null from t1",
        "select date '2024-01-01', DATE '2024-01-01', timestamp '2024-01-01 10:00:00' from t1",
        "select d + interval '3' month, d - interval '2' year, d + interval '1' day from t1",
        // comparisons and boolean logic
        "select id = 1, id <> 1, id != 1, id < 1, id <= 1, id > 1, id >= 1 from t1",
        "select flag and k > 1, flag or k > 1, id > 1 and k > 1 and flag, not flag, not (id > 1), not not flag from t1",
        "select id is null, id is not null, flag is true, flag is not true, flag is false, flag is not false, flag is unknown from t1",
        "select id is distinct from k, id is not distinct from k from t1",
        "select id between 1 and 3, id not between 1 and 3, id in (1, 2), id not in (3, 4, 5), k in (10) from t1",
        "select name like 'a%', name not like 'a%', name like 'a!%' escape '!' from t1",
        // CASE, CAST, conditional functions
        "select case when id > 1 then 'a' else 'b' end, case when flag then 1 end, case k when 10 then 'ten' when 20 then 'twenty' end from t1",
        "select case when id in (1, 2) then id * 2 when id > 5 then 0 else -1 end from t1",
        "select cast(id as varchar), cast(id as bigint), cast(id as integer), cast(id as int), cast(amount as decimal(10, 3)) from t1",
        "select cast(amount as double), cast(id as smallint), cast(k as numeric(12,2)), cast(id as boolean), cast(null as int) from t1",
        "select coalesce(k, 1), coalesce(k, id, 0), nullif(id, 1) from t1",
        // functions: lower case, DuckDB's keyword names quoted
        "select upper(name), lower(name), substring(name, 1, 2), substring(name, 2), char_length(name), name || 'x' from t1",
        "select upper(name) || '-' || lower(name), trim(name), abs(id), round(amount, 1) from t1",
        "select extract(year from d), extract(month from d), extract(day from d) from t1",
        // column references
        "select id, t1.id, \"id\", k from t1",
        "select name, t1.name, flag from t1",
        // sub-queries
        "select (select max(id) from t1), exists (select 1 from t2) from t1",
        "select id in (select k from t2), id not in (select qty from t2 where qty is not null) from t1",
        "select (select count(*) from t2 where t2.k > 1) from t1",
        // names of derived tables, CTEs and VALUES
        "select * from (select sum(amount), count(*) from t1) s",
        "select s.\"count_star()\" from (select sum(amount), count(*) from t1) s",
        "with c as (select k, count(*) from t1 group by k) select * from c",
        "values (1, 'a'), (2, 'b')",
        "select * from (values (1, 'a')) v",
        "select col1, col0 + 1 from (values (1, 'a')) v",
        "select k + 1 from t1 union all select qty from t2",
        "select id, sum(amount) from t1 group by id order by sum(amount) desc nulls last, id",
    })
    void namesMatchDuckDb(String sql) throws SQLException {
        assertThat(session.executeScript(sql).columnNames()).as(sql).containsExactlyElementsOf(duckDbNames(sql));
    }

    @Test
    void viewsAndExplainUseTheNames() {
        session.executeScript("create or replace view totals as select k, sum(amount), count(*) from t1 group by k");
        assertThat(session.executeScript("select * from totals").columnNames()).containsExactly("k", "sum(amount)", "count_star()");
        assertThat(session.executeScript("select \"sum(amount)\" from totals where k = 10").rows()).containsExactly(List.of(new BigDecimal("-0.75")));
        String plan = (String) session.executeScript("explain select k + 1, sum(amount) from t1 group by k + 1").rows().get(0).get(0);
        assertThat(plan).contains("AS (k + 1)").doesNotContain("EXPR$");
        session.executeScript("drop view totals");
    }

    /** Quiver quotes an identifier exactly when DuckDB does: the keyword list it uses is DuckDB's. */
    @Test
    void keywordListIsDuckDbs() throws SQLException, IOException {
        Set<String> duck = new TreeSet<>();
        for (List<Object> row : duckdb.query("select keyword_name from duckdb_keywords()")) {
            duck.add((String) row.get(0));
        }
        Set<String> ours = new TreeSet<>();
        try (InputStream in = dev.quiver.sql.planner.SqlPlanner.class.getResourceAsStream("duckdb-keywords.txt")) {
            new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)).lines().filter(l -> !l.isBlank()).forEach(ours::add);
        }
        assertThat(ours).isEqualTo(duck);
    }

    private List<String> duckDbNames(String sql) throws SQLException {
        List<String> names = new ArrayList<>();
        try (Statement statement = duckdb.connection().createStatement(); ResultSet result = statement.executeQuery(sql)) {
            ResultSetMetaData metaData = result.getMetaData();
            for (int i = 1; i <= metaData.getColumnCount(); i++) {
                names.add(metaData.getColumnName(i));
            }
        }
        return names;
    }
}
