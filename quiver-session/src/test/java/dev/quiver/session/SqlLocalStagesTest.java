package dev.quiver.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.distributed.plan.DistributedPlan;
import dev.quiver.distributed.plan.DistributedPlannerSettings;
import dev.quiver.distributed.plan.StageConsistency;
import dev.quiver.distributed.planner.DistributedPlanner;
import dev.quiver.engine.config.EngineSettings;
import dev.quiver.engine.execution.ExecutionPlan;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * SQL shapes beyond TPC-H (outer, semi and anti joins, non-equi and cross joins, set operations,
 * scalar subqueries, limits) planned into stages over the small test tables split across 3 tasks
 * of 3 partitions, run by {@link LocalStageRunner}, against DuckDB; with broadcast joins and with
 * collect-left joins planned partitioned.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SqlLocalStagesTest {
    private MemoryCatalog catalog;
    private DuckDbOracle duckdb;
    private LocalStageRunner runner;

    @BeforeAll
    void start() throws SQLException {
        catalog = TestTables.catalog();
        duckdb = new DuckDbOracle(catalog);
        runner = new LocalStageRunner(SqlPlanCodec.builder().build());
    }

    @AfterAll
    void stop() throws SQLException {
        runner.close();
        duckdb.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "select t1.id, t2.v from t1 join t2 on t1.k = t2.k",
        "select t1.id, t2.v from t1 left join t2 on t1.k = t2.k",
        "select t1.id, t2.v from t1 right join t2 on t1.k = t2.k",
        "select t1.id, t2.v from t1 full join t2 on t1.k = t2.k",
        "select t1.id, t2.v from t1, t2",
        "select id from t1 where k in (select k from t2)",
        "select id from t1 where exists (select * from t2 where t2.k = t1.k)",
        "select id from t1 where not exists (select * from t2 where t2.k = t1.k)",
        "select id from t1 where k not in (select k from t2)",
        "select k, count(*), count(name), sum(amount), min(name), max(d) from t1 group by k",
        "select count(*), count(k), sum(amount), min(amount), max(name) from t1",
        "select count(*), count(k), sum(x), min(x), max(k) from empty_t",
        "select count(distinct k), count(distinct name) from t1",
        "select k, count(distinct name) from t1 group by k",
        "select k from t1 union select k from t2",
        "select k from t1 union all select k from t2",
        "select k from t1 intersect select k from t2",
        "select k from t1 except select k from t2",
        "select a.id, b.qty from t1 a join t2 b on a.k is not distinct from b.k",
        "select id, (select count(*) from t2 where t2.k is not distinct from t1.k) from t1",
        "select a.id, b.id from t1 a join t1 b on a.k = b.k and a.id < b.id",
        "select t1.id, t2.v from t1 left join t2 on t1.id < t2.qty",
        "select t1.id, t2.v from t1 full join t2 on t1.id = t2.qty + 100",
        "select t1.id, t2.v from t1 join t2 on t1.k = t2.k or t1.id = t2.qty",
        "select id from t1 where amount > (select avg(amount) from t1)",
        "select k, sum(amount) from t1 group by k having count(*) > 1",
        "select 'a' as s union all select 'bc'",
        "select t2.v, count(*) from t1 join t2 on t1.k = t2.k group by t2.v",
    })
    void matchesDuckDb(String sql) throws SQLException {
        assertSameRows(sql, false);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "select id, amount from t1 order by amount nulls first, id",
        "select id, name from t1 order by name limit 4",
        "select id, name from t1 order by id limit 3 offset 2",
        "select k, count(*) as c from t1 group by k order by c desc, k nulls first",
        "select id from t1 order by id limit 0",
        "select distinct name from t1 order by name nulls first limit 5 offset 1",
    })
    void matchesDuckDbInOrder(String sql) throws SQLException {
        assertSameRows(sql, true);
    }

    private void assertSameRows(String sql, boolean ordered) throws SQLException {
        List<List<Object>> expected = duckdb.query(sql);
        ExecutionPlan single = QueryPlanning.plan(catalog, Map.of(), TestSettings.withPartitions(3).with(EngineSettings.BATCH_SIZE, 3), sql);
        DistributedPlannerSettings settings = DistributedPlannerSettings.defaults(3, 3).withBytesPerPartitionForScans(1);
        for (boolean broadcast : new boolean[] {true, false}) {
            DistributedPlan plan = new DistributedPlanner(settings.withBroadcastJoins(broadcast)).plan(single);
            StageConsistency.check(plan);
            List<List<Object>> actual = DuckDbOracle.normalize(runner.run(plan));
            String label = sql + (broadcast ? "" : " (collect-left joins partitioned)");
            if (ordered) {
                assertThat(actual).as(label).isEqualTo(expected);
            } else {
                assertThat(actual).as(label).containsExactlyInAnyOrderElementsOf(expected);
            }
        }
    }
}
