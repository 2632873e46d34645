package dev.quiver.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Scalar functions in distributed plans on 3 local workers (real Flight servers): the calls are
 * serialized by function name in task plans, evaluated on the workers, and used as join keys,
 * grouping keys and filters across stages; results compared with DuckDB. With AQE too.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DistributedFunctionsTest {
    private MemoryCatalog catalog;
    private DuckDbOracle duckdb;
    private QuerySession session;
    private QuerySession adaptive;

    @BeforeAll
    void start() throws SQLException {
        catalog = ScalarFunctionsTest.tables();
        duckdb = new DuckDbOracle(catalog);
        session = QuerySession.builder().catalog(catalog).targetPartitions(2).localWorkers(3)
                .set("distributed.bytes_per_partition_for_scans", "64").set("hash_join_collect_left_max_rows", "0").build();
        adaptive = QuerySession.builder().catalog(catalog).targetPartitions(2).localWorkers(3)
                .set("distributed.dynamic_task_count", "true").set("distributed.dynamic_bytes_per_partition", "64").build();
    }

    @AfterAll
    void stop() throws SQLException {
        try (QuerySession first = session; QuerySession second = adaptive) {
            duckdb.close();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "select upper(s), length(s), regexp_replace(s, '[aeiou]', '#', 'g'), try_cast(t as integer) from fx",
        "select lower(left(s, 3)) as k, count(*), sum(n) from fx group by lower(left(s, 3))",
        "select a.id, b.id from fx a join fx b on upper(a.t) = upper(b.t)",
        "select id from fx where s ilike '%A%' or regexp_matches(s, 'ö|😀')",
        "select round(m, 1), greatest(n, l), coalesce(s, t, '?') || '!' from fx",
        "select split_part(s, ',', 2), strpos(s, t), lpad(cast(n as varchar), 5, '0') from fx where n is not null",
    })
    void matchesDuckDb(String sql) throws SQLException {
        List<List<Object>> expected = sorted(duckdb.query(sql));
        for (QuerySession each : List.of(session, adaptive)) {
            assertThat(each.isDistributed()).isTrue();
            assertThat(sorted(DuckDbOracle.normalize(each.executeScript(sql).rows()))).as(sql).isEqualTo(expected);
        }
    }

    private static List<List<Object>> sorted(List<List<Object>> rows) {
        List<List<Object>> copy = new ArrayList<>(rows);
        copy.sort(Comparator.comparing(Objects::toString));
        return copy;
    }
}
