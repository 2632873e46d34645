package dev.quiver.session.sqllogic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.engine.error.QuiverException;
import dev.quiver.session.QueryHandle;
import dev.quiver.session.QueryResult;
import dev.quiver.session.QuerySession;
import java.sql.SQLException;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The 99 TPC-DS queries (103 statements, {@link TpcdsQueries}) at SF 0.01 ({@link TpcdsData}) on one
 * node and on 4 local workers with AQE, each result compared with DuckDB's on the same Parquet files
 * by the rules of the SQL-file suite ({@link ResultMatcher}), as multisets: ORDER BY is the suite's
 * to check, and a LIMIT's ties may legitimately differ in order.
 *
 * <p>Both sessions run with {@code division_by_zero = 'null'}; the statements whose DuckDB answer
 * differs by a documented dialect difference are compared as {@link TpcdsDialect} says.
 * Statements that do not pass yet are listed in {@link TpcdsFailures} with the reason; for
 * them the test asserts that they still fail, so a statement that starts passing must leave the list.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TpcdsTest {
    private DuckDbDatabase duckDb;
    private QuerySession single;
    private QuerySession adaptive;
    private final Map<String, DuckDbDatabase.Result> expected = new ConcurrentHashMap<>();

    @BeforeAll
    void start() {
        TpcdsData data = TpcdsData.prepare();
        duckDb = data.duckDb();
        TableListCatalog catalog = new TableListCatalog(data.tables());
        // DuckDB 2.0 gives no error for a decimal division by zero (it divides in DOUBLE); see TpcdsDialect
        single = QuerySession.builder().catalog(catalog).targetPartitions(2).set("division_by_zero", "null").build();
        adaptive = QuerySession.builder().catalog(catalog).targetPartitions(2).localWorkers(4)
                .set("division_by_zero", "null")
                .set("distributed.dynamic_task_count", "true")
                .set("distributed.bytes_per_partition_for_scans", "1MiB")
                .set("distributed.dynamic_bytes_per_partition", "1MiB")
                .build();
    }

    @AfterAll
    void stop() throws SQLException {
        try (DuckDbDatabase closedLast = duckDb; QuerySession second = adaptive; QuerySession first = single) {
            assertThat(single.memoryPool().used()).isZero();
        }
    }

    static Stream<Arguments> statements() {
        return TpcdsQueries.names().stream().flatMap(name -> Stream.of(Arguments.of(name, RunMode.SINGLE), Arguments.of(name, RunMode.ADAPTIVE)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("statements")
    void matchesDuckDb(String name, RunMode mode) throws SQLException {
        Optional<String> failure = failure(name, mode == RunMode.SINGLE ? single : adaptive);
        Optional<String> known = TpcdsFailures.reason(name, mode);
        if (known.isPresent()) {
            assertThat(failure).as("%s %s is listed in TpcdsFailures as not passing (%s) but it passes now: remove it from the list",
                    name, mode.label(), known.get()).isPresent();
        } else {
            assertThat(failure).as("%s %s", name, mode.label()).isEmpty();
        }
    }

    /** Why Quiver's result of the statement differs from DuckDB's, or empty if it does not. */
    private Optional<String> failure(String name, QuerySession session) throws SQLException {
        String sql = TpcdsQueries.sql(name);
        DuckDbDatabase.Result want = expected.get(name);
        if (want == null) {
            want = duckDb.query(sql);
            expected.put(name, want);
        }
        QueryResult result;
        try {
            QueryHandle handle = session.execute(sql);
            result = handle.collect();
            if (handle.isDistributed()) {
                handle.finalPlan().get(60, TimeUnit.SECONDS);
            }
        } catch (QuiverException e) {
            return Optional.of(e.errorCode() + ": " + e.getMessage());
        } catch (Exception e) {
            return Optional.of("the final plan did not complete: " + e);
        }
        return ResultMatcher.mismatch(want.types(), SltRecord.SortMode.ROWSORT, TpcdsDialect.expected(name, want.lines()), result.schema(), result.rows())
                .map(why -> TpcdsDialect.reason(name).map(dialect -> why + "\n(compared as: " + dialect + ")").orElse(why));
    }
}
