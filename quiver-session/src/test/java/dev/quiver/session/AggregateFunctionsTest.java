package dev.quiver.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.error.ResourcesExhaustedException;
import dev.quiver.engine.types.QuiverTypes;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The aggregate functions and GROUPING SETS against DuckDB on the same rows ({@link AggregateTables}),
 * in four modes: one partition; three partitions with batches of 3 rows (so that partial states
 * are merged from many partitions and batches); and on 4 local workers, with static and with
 * adaptive task counts. Floating-point results compare with a relative tolerance of 1e-9; every
 * other value exactly. A query written {@code quiver ||| duckdb} compares Quiver's text with
 * DuckDB's for the same result (DuckDB lacks EVERY, GROUP_CONCAT ... SEPARATOR, and ties in
 * MODE are broken differently).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AggregateFunctionsTest {
    private static final double TOLERANCE = 1e-9;
    /**
     * For statistics of {@code big} (values near 10^9 that spread by about 24): each deviation from
     * the running mean carries the mean's rounding error (10^-7 of 24), so the order rows are
     * merged in (which differs between modes and from DuckDB's) moves the result by about 10^-8.
     */
    private static final double BIG_TOLERANCE = 1e-6;

    enum Mode { ONE_PARTITION, PARTITIONED, DISTRIBUTED, ADAPTIVE }

    private MemoryCatalog catalog;
    private DuckDbOracle duckdb;
    private final Map<Mode, QuerySession> sessions = new EnumMap<>(Mode.class);

    @BeforeAll
    void start() throws SQLException {
        catalog = AggregateTables.catalog();
        duckdb = new DuckDbOracle(catalog);
        sessions.put(Mode.ONE_PARTITION, QuerySession.builder().catalog(catalog).targetPartitions(1).build());
        sessions.put(Mode.PARTITIONED, QuerySession.builder().catalog(catalog).targetPartitions(3).batchSize(3).build());
        sessions.put(Mode.DISTRIBUTED, QuerySession.builder().catalog(catalog).targetPartitions(2).batchSize(16).localWorkers(4).build());
        sessions.put(Mode.ADAPTIVE, QuerySession.builder().catalog(catalog).targetPartitions(2).batchSize(16).localWorkers(4)
                .set("distributed.dynamic_task_count", "true").build());
    }

    @AfterAll
    void stop() throws SQLException {
        for (QuerySession session : sessions.values()) {
            assertThat(session.memoryPool().used()).isZero();
            session.close();
        }
        duckdb.close();
    }

    static final List<String> QUERIES = List.of(
            // variances and standard deviations: DOUBLE of every numeric type, NULL below 2 (samp) or 1 (pop) values
            "select g, stddev(x), stddev_samp(x), stddev_pop(x), variance(x), var_samp(x), var_pop(x) from nums group by g",
            "select stddev_samp(f), var_pop(f), stddev_pop(m), var_samp(m), stddev_samp(y), var_pop(y) from nums",
            "select g, var_pop(big), stddev_samp(big), var_samp(big) from nums group by g",
            "select var_samp(big), stddev_pop(big) from nums",
            "select g, stddev_samp(x), var_samp(f), var_pop(x), stddev_pop(m) from nums where g = 6 group by g",
            "select var_samp(x), stddev_pop(x), var_pop(k) from empty_t",
            "select k, stddev_samp(x), var_pop(x) from empty_t group by k",
            "select g, stddev_samp(distinct x), var_pop(distinct x) from nums group by g",
            "select g, stddev_samp(x) filter (where b), var_pop(f) filter (where x > 20) from nums group by g",
            "select k, stddev_samp(amount), var_pop(id), stddev_pop(qty) from t1 left join t2 using (k) group by k",
            // covariance, correlation, regression
            "select g, corr(f, x), covar_samp(f, x), covar_pop(y, m), regr_slope(f, x), regr_intercept(f, x), regr_r2(f, x) from nums group by g",
            "select g, regr_count(f, x), regr_avgx(f, x), regr_avgy(f, x), regr_sxx(f, x), regr_syy(f, x), regr_sxy(f, x) from nums group by g",
            "select corr(m, big), covar_pop(big, f), regr_slope(big, x), regr_r2(x, f) from nums",
            "select corr(x, x), covar_samp(x, f), covar_pop(x, f), regr_sxx(x, f), regr_slope(f, x), regr_intercept(f, x) from nums where g = 6",
            "select corr(x, k), covar_samp(k, x), regr_count(x, k) from empty_t",
            "select g, corr(f, x) filter (where b), covar_samp(f, x) filter (where not b) from nums group by g",
            "select corr(qty, k), regr_slope(qty, k), regr_r2(qty, qty) from t2",
            // percentiles, median, quantiles: DOUBLE of integers and DOUBLE, the same DECIMAL, TIMESTAMP of dates
            "select g, median(x), median(f), median(m), median(dt) from nums group by g",
            "select g, quantile_cont(x, 0.25), quantile_disc(x, 0.25), quantile(m, 0.9), quantile_cont(f, 0.75), quantile_disc(s, 0.5) from nums group by g",
            "select g, quantile_cont(dt, 0.3), quantile_disc(dt, 0.7), quantile_cont(m, 0.37), quantile_cont(y, 0.5) from nums group by g",
            "select percentile_cont(0.1) within group (order by m), percentile_disc(0.33) within group (order by x desc), "
                    + "percentile_cont(0.5) within group (order by f desc), percentile_disc(0.5) within group (order by y) from nums",
            "select g, percentile_cont(0.9) within group (order by x), percentile_disc(0.1) within group (order by m desc) from nums group by g",
            "select quantile_cont(x, -0.2), quantile_disc(m, 0), quantile_disc(m, 1), quantile_cont(y, 1), quantile_cont(f, 0) from nums",
            "select g, median(x), quantile_disc(s, 0.5) from nums where x is null group by g",
            "select median(x), quantile_cont(x, 0.5), percentile_disc(0.5) within group (order by x) from empty_t",
            "select k, median(x) from empty_t group by k",
            "select g, median(x) filter (where b), quantile_cont(f, 0.2) filter (where x > 0) from nums group by g",
            "select k, median(amount), median(d), quantile_disc(name, 0.5), median(id) from t1 group by k",
            // MODE: the most frequent value; ties go to the smallest value
            "select g, mode(x), mode(s), mode(b) from nums group by g ||| "
                    + "select g, (select x from nums n where n.g is not distinct from o.g and x is not null group by x order by count(*) desc, x limit 1),"
                    + " (select s from nums n where n.g is not distinct from o.g and s is not null group by s order by count(*) desc, s limit 1),"
                    + " (select b from nums n where n.g is not distinct from o.g and b is not null group by b order by count(*) desc, b limit 1)"
                    + " from (select distinct g from nums) o",
            "select mode(k), mode(name), mode(amount), mode(d) from t1",
            "select mode(x) from empty_t",
            // STRING_AGG / LISTAGG / GROUP_CONCAT with their separators and ORDER BY
            "select g, string_agg(s, ',' order by s), string_agg(s, '; ' order by x desc, s) from nums group by g",
            "select g, listagg(s, '|') within group (order by dt nulls first, s) from nums group by g ||| "
                    + "select g, string_agg(s, '|' order by dt nulls first, s) from nums group by g",
            "select g, group_concat(s order by s desc separator '-') from nums group by g ||| select g, string_agg(s, '-' order by s desc) from nums group by g",
            "select string_agg(distinct s, ',' order by s), string_agg(s, '' order by id) from nums",
            "select g, char_length(string_agg(s, ',')), char_length(string_agg(s)) from nums group by g",
            "select g, string_agg(s, ',' order by s) filter (where b), string_agg(s, ',' order by id) filter (where x > 100) from nums group by g",
            "select k, string_agg(name, ', ' order by id desc), string_agg(v, '+' order by v nulls first) from t1 left join t2 using (k) group by k",
            "select string_agg(name, ',' order by name), string_agg(cast(x as varchar), ',') from empty_t, t1 where id < 0",
            // BOOL_AND/BOOL_OR/EVERY, COUNT_IF, ANY_VALUE, APPROX_COUNT_DISTINCT
            "select g, bool_and(b), bool_or(b), count_if(b), count_if(x > 50), count_if(not b) from nums group by g",
            "select g, every(b), some(x > 0) from nums group by g ||| select g, bool_and(b), bool_or(x > 0) from nums group by g",
            "select bool_and(flag), bool_or(flag), count_if(flag), bool_and(k > 0) from t1",
            "select bool_and(x > 0), bool_or(x > 0), count_if(x > 0) from empty_t",
            "select g, any_value(g), arbitrary(g + 1), any_value(case when g = 6 then s end) from nums group by g",
            "select g, approx_count_distinct(s), approx_count_distinct(x) from nums group by g ||| "
                    + "select g, count(distinct s), count(distinct x) from nums group by g",
            // several kinds in one aggregate: decomposable and holistic together
            "select g, count(*), sum(x), avg(f), stddev_samp(x), median(x), string_agg(s, ',' order by s), count(distinct s) from nums group by g",
            "select count(*), min(s), corr(x, f), mode(dt), median(m), var_pop(m) from nums",
            // GROUPING SETS, ROLLUP, CUBE and GROUPING()
            "select g, b, count(*), sum(x), grouping(g), grouping(b), grouping(g, b) from nums group by rollup(g, b)",
            "select g, b, count(*), avg(f), grouping(b, g) from nums group by cube(g, b)",
            "select g, b, count(*), max(s) from nums group by grouping sets ((g), (b), ())",
            "select g, b, s, count(*) from nums group by grouping sets ((g, b), (g, s), (s))",
            "select g, count(*), median(x), stddev_samp(x), string_agg(s, ',' order by s) from nums group by rollup(g)",
            "select g, count(distinct x), string_agg(distinct s, ',' order by s) from nums group by rollup(g)",
            "select g, b, count(*) from nums group by rollup(g, b) having count(*) > 10",
            "select g, count(*) from nums group by grouping sets ((g), (g), ())",
            "select k, count(*), sum(x), median(x) from empty_t group by rollup(k)",
            "select count(*), sum(x) from empty_t group by grouping sets (())",
            "select k, count(*) from empty_t group by grouping sets ((k))",
            "select k, name, count(*), sum(amount), grouping(k, name) from t1 group by rollup(k, name)",
            "select k, count(*), count(k), grouping(k) from t1 group by rollup(k)",
            "select k, flag, count(*) filter (where amount > 1), sum(amount) filter (where flag) from t1 group by cube(k, flag)",
            "select g, x % 3, count(*) from nums where g < 3 group by rollup(g, x % 3)",
            "select g, sum(x) from nums group by rollup(g) order by grouping(g), g nulls first",
            "select t2.v, t1.flag, count(*), sum(t1.amount) from t1 join t2 on t1.k = t2.k group by cube(t2.v, t1.flag)");

    Stream<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        for (String query : QUERIES) {
            for (Mode mode : Mode.values()) {
                cases.add(Arguments.of(query, mode));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{1}: {0}")
    @MethodSource("cases")
    void matchesDuckDb(String query, Mode mode) throws SQLException {
        String[] texts = query.split(" \\|\\|\\| ");
        String quiverSql = texts[0];
        String duckSql = texts.length > 1 ? texts[1] : texts[0];
        boolean ordered = quiverSql.contains(" order by grouping");
        List<List<Object>> expected = normalize(duckdb.queryValues(duckSql));
        List<List<Object>> actual = normalize(sessions.get(mode).executeScript(quiverSql).rows());
        if (!ordered) {
            expected = sorted(expected);
            actual = sorted(actual);
        }
        assertThat(actual).as("%s in %s", quiverSql, mode).hasSameSizeAs(expected);
        for (int r = 0; r < expected.size(); r++) {
            assertRowEquals(actual.get(r), expected.get(r), quiverSql.contains("big") ? BIG_TOLERANCE : TOLERANCE,
                    quiverSql + " in " + mode + ", row " + r);
        }
    }

    @Test
    void resultTypesFollowDuckDb() {
        QueryResult result = sessions.get(Mode.ONE_PARTITION).executeScript("select stddev(x), var_pop(m), corr(x, m), median(x), median(m), median(dt),"
                + " quantile_disc(dt, 0.5), mode(s), string_agg(s, ','), count_if(b), bool_and(b), regr_count(x, f) from nums");
        assertThat(result.schema().getFields()).extracting(field -> QuiverTypes.sqlName(field.getType())).containsExactly(
                "DOUBLE", "DOUBLE", "DOUBLE", "DOUBLE", "DECIMAL(15,2)", "TIMESTAMP", "DATE", "VARCHAR", "VARCHAR", "BIGINT", "BOOLEAN", "BIGINT");
    }

    /**
     * The variance of 10^9 + k/2 (k = 0..96, each about 4 times) to within 10^-8 of the exact value (a
     * naive sum of squares minus squared sum would cancel every digit: the squares reach 10^21).
     */
    @Test
    void varianceOfLargeValuesWithASmallSpreadIsExactToDoublePrecision() {
        BigDecimal sum = BigDecimal.ZERO;
        List<BigDecimal> values = new ArrayList<>();
        for (int i = 0; i < AggregateTables.NUMS_ROWS; i++) {
            BigDecimal value = new BigDecimal(1e9 + (i % 97) * 0.5);
            values.add(value);
            sum = sum.add(value);
        }
        BigDecimal mean = sum.divide(BigDecimal.valueOf(values.size()), java.math.MathContext.DECIMAL128);
        BigDecimal squares = BigDecimal.ZERO;
        for (BigDecimal value : values) {
            squares = squares.add(value.subtract(mean).pow(2));
        }
        double exact = squares.divide(BigDecimal.valueOf(values.size()), java.math.MathContext.DECIMAL128).doubleValue();
        for (Mode mode : List.of(Mode.ONE_PARTITION, Mode.PARTITIONED)) {
            double variance = (Double) sessions.get(mode).executeScript("select var_pop(big) from nums").rows().get(0).get(0);
            assertThat(variance).as("%s", mode).isCloseTo(exact, org.assertj.core.data.Percentage.withPercentage(1e-5));
        }
    }

    @Test
    void holisticAggregateOverAGroupLargerThanThePoolFailsNamingTheOperator() {
        Schema schema = new Schema(List.of(QuiverTypes.field("k", QuiverTypes.INT32, false), QuiverTypes.field("s", QuiverTypes.UTF8, false)));
        List<List<Object>> rows = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            rows.add(List.of(i % 2, "value number " + i));
        }
        MemoryCatalog big = new MemoryCatalog().add("big", schema, rows);
        try (QuerySession session = QuerySession.builder().catalog(big).targetPartitions(2).batchSize(1024).build()) {
            session.executeScript("SET memory_limit = '256KiB'");
            for (String sql : List.of("select k, string_agg(s, ',' order by s) from big group by k", "select median(s) from big",
                    "select k, mode(s) from big group by rollup(k)")) {
                assertThatThrownBy(() -> session.executeScript(sql))
                        .as(sql)
                        .isInstanceOfSatisfying(ResourcesExhaustedException.class, e -> {
                            assertThat(e.errorCode()).isEqualTo(ErrorCode.EXCEEDED_MEMORY_LIMIT);
                            assertThat(e.consumer()).contains("HashAggregateExec[mode=SINGLE");
                        });
                assertThat(session.memoryPool().used()).isZero();
            }
            session.executeScript("SET memory_limit = 'unlimited'");
            assertThat(session.executeScript("select k, char_length(string_agg(s, ',' order by s)) from big group by k").rows()).hasSize(2);
        }
    }

    @Test
    void badCallsFailClearly() {
        QuerySession session = sessions.get(Mode.ONE_PARTITION);
        assertError(session, "select quantile_cont(x, g) from nums", ErrorCode.INVALID_ARGUMENT, "must be a constant");
        assertError(session, "select quantile_cont(x, 1.5) from nums", ErrorCode.INVALID_ARGUMENT, "between -1 and 1");
        assertError(session, "select string_agg(s, s) from nums", ErrorCode.INVALID_ARGUMENT, "must be a constant");
        assertError(session, "select stddev(s) from nums", ErrorCode.TYPE_MISMATCH, "STDDEV");
        assertThat(session.executeScript("select count(*) from nums").rows()).containsExactly(List.of((long) AggregateTables.NUMS_ROWS));
    }

    private static void assertError(QuerySession session, String sql, ErrorCode code, String message) {
        assertThatThrownBy(() -> session.executeScript(sql)).as(sql)
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(code))
                .hasMessageContaining(message);
    }

    private static void assertRowEquals(List<Object> actual, List<Object> expected, double tolerance, String what) {
        assertThat(actual).as(what).hasSameSizeAs(expected);
        for (int c = 0; c < expected.size(); c++) {
            Object a = actual.get(c);
            Object e = expected.get(c);
            if (a instanceof Double x && e instanceof Double y) {
                boolean close = x.equals(y) || Math.abs(x - y) <= tolerance * Math.max(1, Math.max(Math.abs(x), Math.abs(y)));
                assertThat(close).as("%s, column %d: %s vs DuckDB's %s", what, c, x, y).isTrue();
            } else {
                assertThat(a).as("%s, column %d", what, c).isEqualTo(e);
            }
        }
    }

    /** Integers as Long, decimals without trailing zeros, floating-point values as Double. */
    private static List<List<Object>> normalize(List<List<Object>> rows) {
        List<List<Object>> out = new ArrayList<>();
        for (List<Object> row : rows) {
            List<Object> normalized = new ArrayList<>();
            for (Object value : row) {
                normalized.add(normalize(value));
            }
            out.add(normalized);
        }
        return out;
    }

    private static Object normalize(Object value) {
        if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        if (value instanceof BigInteger big) {
            return big.longValueExact();
        }
        if (value instanceof BigDecimal decimal) {
            return decimal.signum() == 0 ? BigDecimal.ZERO : decimal.stripTrailingZeros();
        }
        if (value instanceof Float f) {
            return f.doubleValue();
        }
        return value;
    }

    private static List<List<Object>> sorted(List<List<Object>> rows) {
        List<List<Object>> copy = new ArrayList<>(rows);
        copy.sort(Comparator.comparing(AggregateFunctionsTest::sortKey));
        return copy;
    }

    private static String sortKey(List<Object> row) {
        return row.stream().map(v -> v instanceof Double d ? String.format(Locale.ROOT, "%.6g", d) : String.valueOf(v)).collect(Collectors.joining("|"));
    }
}
