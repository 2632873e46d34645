package dev.quiver.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.types.QuiverTypes;
import java.math.BigDecimal;
import java.sql.SQLException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.stream.Collectors;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * APPROX_COUNT_DISTINCT (HyperLogLog) and APPROX_QUANTILE / APPROX_PERCENTILE / APPROX_MEDIAN
 * (t-digest) against DuckDB's exact answers on the same 100,000 rows, on one partition, on three
 * partitions of small batches (partial sketches merged from many partitions) and on 4 local workers,
 * static and adaptive. An estimate is not DuckDB's estimate, so the checks are the sketches'
 * guarantees, computed by DuckDB: a distinct count within 4 standard errors (6.5%) of
 * {@code COUNT(DISTINCT)}, and exactly it for a group of at most 256 distinct values; a quantile
 * whose rank in its group is within 0.01 of the fraction asked, and in a group of at most 128
 * values exactly QUANTILE_DISC's value.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ApproxAggregatesTest {
    private static final int ROWS = 100_000;
    private static final double DISTINCT_TOLERANCE = 4 * 1.04 / Math.sqrt(4096);
    private static final double RANK_TOLERANCE = 0.01;
    private static final List<String> FRACTIONS = List.of("0", "0.01", "0.25", "0.5", "0.9", "0.99", "1");
    private static final List<String> QUANTILE_COLUMNS = List.of("x", "y", "f", "m", "dt", "ts");

    enum Mode { ONE_PARTITION, PARTITIONED, DISTRIBUTED, ADAPTIVE }

    private MemoryCatalog catalog;
    private DuckDbOracle duckdb;
    private final Map<Mode, QuerySession> sessions = new EnumMap<>(Mode.class);

    @BeforeAll
    void start() throws SQLException {
        catalog = new MemoryCatalog().add("sample", sampleSchema(), sampleRows()).add("specials", specialsSchema(), specialsRows());
        duckdb = new DuckDbOracle(catalog);
        sessions.put(Mode.ONE_PARTITION, QuerySession.builder().catalog(catalog).targetPartitions(1).build());
        sessions.put(Mode.PARTITIONED, QuerySession.builder().catalog(catalog).targetPartitions(3).batchSize(1000).build());
        sessions.put(Mode.DISTRIBUTED, QuerySession.builder().catalog(catalog).targetPartitions(2).batchSize(4096).localWorkers(4).build());
        sessions.put(Mode.ADAPTIVE, QuerySession.builder().catalog(catalog).targetPartitions(2).batchSize(4096).localWorkers(4)
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

    /**
     * {@code sample}: groups {@code g} 0 to 3 of about 25,000 rows, group 10 of 100 rows, and NULL;
     * uniform integers {@code x}, exponentially skewed {@code y}, Gaussian doubles {@code f} and
     * decimals {@code m}, dates, timestamps, about 30,000 distinct strings {@code s}, and {@code k}
     * repeating each value 3 times; 5% NULLs in most columns.
     */
    private static Schema sampleSchema() {
        return new Schema(List.of(
                QuiverTypes.field("id", QuiverTypes.INT32, false),
                QuiverTypes.field("g", QuiverTypes.INT32, true),
                QuiverTypes.field("x", QuiverTypes.INT32, true),
                QuiverTypes.field("y", QuiverTypes.INT64, true),
                QuiverTypes.field("f", QuiverTypes.FLOAT64, true),
                QuiverTypes.field("m", QuiverTypes.decimal(15, 2), true),
                QuiverTypes.field("dt", QuiverTypes.DATE32, true),
                QuiverTypes.field("ts", QuiverTypes.TIMESTAMP, true),
                QuiverTypes.field("s", QuiverTypes.UTF8, true),
                QuiverTypes.field("k", QuiverTypes.INT64, false)));
    }

    private static List<List<Object>> sampleRows() {
        Random random = new Random(20261202);
        long epoch2000 = LocalDate.of(2000, 1, 1).toEpochDay();
        List<List<Object>> rows = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            Integer g = i % 1000 == 7 ? Integer.valueOf(10) : i % 997 == 0 ? null : Integer.valueOf(i % 4);
            rows.add(Arrays.asList(
                    i,
                    g,
                    sometimesNull(random, random.nextInt(1_000_000)),
                    sometimesNull(random, (long) (-Math.log(1 - random.nextDouble()) * 1e6)),
                    sometimesNull(random, random.nextGaussian() * 100),
                    sometimesNull(random, BigDecimal.valueOf(random.nextInt(10_000_000) - 2_000_000, 2)),
                    sometimesNull(random, (int) (epoch2000 + random.nextInt(10_000))),
                    sometimesNull(random, 946_684_800_000_000L + (long) (random.nextDouble() * 3e14)),
                    sometimesNull(random, "w" + random.nextInt(30_000)),
                    (long) (i / 3)));
        }
        return rows;
    }

    private static Object sometimesNull(Random random, Object value) {
        return random.nextInt(20) == 0 ? null : value;
    }

    private static Schema specialsSchema() {
        return new Schema(List.of(QuiverTypes.field("f", QuiverTypes.FLOAT64, true)));
    }

    private static List<List<Object>> specialsRows() {
        return List.of(List.of(Double.NaN), List.of(Double.POSITIVE_INFINITY), List.of(Double.NEGATIVE_INFINITY), List.of(1.0), List.of(2.0),
                List.of(0.0), List.of(-0.0), Arrays.asList((Object) null));
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void approxCountDistinctIsWithinFourStandardErrorsAndExactForSmallGroups(Mode mode) throws SQLException {
        List<String> columns = List.of("x", "y", "f", "m", "dt", "ts", "s", "k", "g");
        String approx = columns.stream().map(c -> "approx_count_distinct(" + c + ")").collect(Collectors.joining(", "));
        String exact = columns.stream().map(c -> "count(distinct " + c + ")").collect(Collectors.joining(", "));
        for (String groupBy : List.of("", " group by g")) {
            String key = groupBy.isEmpty() ? "" : "g, ";
            List<List<Object>> actual = sortedByFirst(sessions.get(mode).executeScript("select " + key + approx + " from sample" + groupBy).rows());
            List<List<Object>> expected = sortedByFirst(duckdb.queryValues("select " + key + exact + " from sample" + groupBy));
            assertThat(actual).hasSameSizeAs(expected);
            int offset = key.isEmpty() ? 0 : 1;
            for (int r = 0; r < expected.size(); r++) {
                for (int c = 0; c < columns.size(); c++) {
                    long want = ((Number) expected.get(r).get(c + offset)).longValue();
                    long got = (Long) actual.get(r).get(c + offset);
                    String what = mode + ": approx_count_distinct(" + columns.get(c) + ")" + groupBy + ", row " + expected.get(r);
                    if (want <= 256) {
                        assertThat(got).as(what).isEqualTo(want);
                    } else {
                        assertThat((double) got).as(what).isBetween(want * (1 - DISTINCT_TOLERANCE), want * (1 + DISTINCT_TOLERANCE));
                    }
                }
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void approxQuantileRanksWithinOnePercentOfTheFraction(Mode mode) throws SQLException {
        for (String column : QUANTILE_COLUMNS) {
            String calls = FRACTIONS.stream().map(f -> "approx_quantile(" + column + ", " + f + ")").collect(Collectors.joining(", "));
            for (List<Object> row : sessions.get(mode).executeScript("select g, " + calls + " from sample group by g").rows()) {
                for (int i = 0; i < FRACTIONS.size(); i++) {
                    assertRank(column, row.get(0), row.get(i + 1), Double.parseDouble(FRACTIONS.get(i)), mode + ": approx_quantile(" + column
                            + ", " + FRACTIONS.get(i) + ") of group " + row.get(0));
                }
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void approxPercentileAndApproxMedianAreApproxQuantile(Mode mode) throws SQLException {
        QuerySession session = sessions.get(mode);
        for (List<Object> row : session.executeScript("select g, approx_percentile(m, 0.75), approx_median(y), approx_median(distinct x),"
                + " approx_quantile(x, 0.5) filter (where x > 500000) from sample group by g").rows()) {
            assertRank("m", row.get(0), row.get(1), 0.75, mode + ": approx_percentile(m, 0.75)");
            assertRank("y", row.get(0), row.get(2), 0.5, mode + ": approx_median(y)");
            assertRank("x", row.get(0), row.get(3), 0.5, mode + ": approx_median(distinct x)");
            assertRank("x", "x > 500000 and g", row.get(0), row.get(4), 0.5, mode + ": approx_quantile(x, 0.5) filter (where x > 500000)");
        }
    }

    /** A group of at most 128 values keeps them, and its quantile is exact: QUANTILE_DISC's value. */
    @ParameterizedTest
    @EnumSource(Mode.class)
    void approxQuantileOfASmallGroupIsQuantileDisc(Mode mode) throws SQLException {
        for (String column : QUANTILE_COLUMNS) {
            String approx = FRACTIONS.stream().map(f -> "approx_quantile(" + column + ", " + f + ")").collect(Collectors.joining(", "));
            String exact = FRACTIONS.stream().map(f -> "quantile_disc(" + column + ", " + f + ")").collect(Collectors.joining(", "));
            assertThat(DuckDbOracle.normalize(sessions.get(mode).executeScript("select " + approx + " from sample where g = 10").rows()))
                    .as("%s: %s", mode, approx)
                    .isEqualTo(duckdb.query("select " + exact + " from sample where g = 10"));
        }
    }

    /** As in DuckDB, NaN and the infinities are skipped; over only such values (or none) the result is NULL. */
    @Test
    void approxQuantileSkipsValuesThatAreNotFiniteAsDuckDbDoes() throws SQLException {
        String sql = "select approx_quantile(f, 0), approx_quantile(f, 1), approx_count_distinct(f),"
                + " (select approx_quantile(f, 0.5) from specials where f > 1e308 or f <> f), (select %s from specials where f is null)"
                + " from specials";
        List<List<Object>> expected = duckdb.query(String.format(sql, "approx_quantile(f, 0.5)"));
        for (Mode mode : Mode.values()) {
            assertThat(DuckDbOracle.normalize(sessions.get(mode).executeScript(String.format(sql, "approx_median(f)")).rows())).as("%s", mode)
                    .isEqualTo(expected);
        }
    }

    @Test
    void resultTypesFollowDuckDb() throws SQLException {
        String sql = "select approx_quantile(x, 0.5), approx_quantile(y, 0.5), approx_quantile(f, 0.5), approx_quantile(m, 0.5),"
                + " approx_quantile(dt, 0.5), approx_quantile(ts, 0.5), approx_count_distinct(s) from sample";
        List<String> quiver = sessions.get(Mode.ONE_PARTITION).executeScript(sql).schema().getFields().stream()
                .map(field -> QuiverTypes.sqlName(field.getType())).toList();
        List<String> duck = new ArrayList<>();
        try (var statement = duckdb.connection().createStatement(); var result = statement.executeQuery(sql)) {
            for (int c = 1; c <= result.getMetaData().getColumnCount(); c++) {
                duck.add(result.getMetaData().getColumnTypeName(c));
            }
        }
        assertThat(quiver).isEqualTo(duck);
    }

    /** The sketches have partial states: a GROUP BY of them is a PARTIAL and a FINAL aggregate, as for SUM, not one SINGLE step. */
    @Test
    void sketchesRunAsPartialAndFinalAggregates() {
        for (String call : List.of("approx_quantile(x, 0.5)", "approx_count_distinct(s)", "approx_median(m)")) {
            String plan = sessions.get(Mode.PARTITIONED).executeScript("explain select g, " + call + " from sample group by g").rows().stream()
                    .map(row -> String.valueOf(row.get(0))).collect(Collectors.joining("\n"));
            assertThat(plan).as(call).contains("mode=PARTIAL").contains("mode=FINAL").doesNotContain("mode=SINGLE")
                    .contains(call.startsWith("approx_count") ? "APPROX_COUNT_DISTINCT" : "APPROX_QUANTILE");
        }
    }

    @Test
    void badCallsFailClearlyAndTheSessionStaysUsable() {
        QuerySession session = sessions.get(Mode.ONE_PARTITION);
        assertError(session, "select approx_quantile(x, 1.5) from sample", ErrorCode.INVALID_ARGUMENT, "between 0 and 1");
        assertError(session, "select approx_quantile(x, -0.5) from sample", ErrorCode.INVALID_ARGUMENT, "between 0 and 1");
        assertError(session, "select approx_quantile(x, g) from sample", ErrorCode.INVALID_ARGUMENT, "must be a constant");
        assertError(session, "select approx_quantile(s, 0.5) from sample", ErrorCode.NOT_SUPPORTED, "APPROX_QUANTILE of VARCHAR");
        assertThat(session.executeScript("select count(*) from sample").rows()).containsExactly(List.of((long) ROWS));
    }

    private void assertRank(String column, Object group, Object value, double fraction, String what) throws SQLException {
        assertRank(column, "g", group, value, fraction, what);
    }

    /**
     * Asserts that {@code value} is an f-quantile of {@code column} in the group to within
     * {@link #RANK_TOLERANCE} (or one value of a small group): the share of the group's values
     * below it is at most f + tolerance, and the share at or below it at least f - tolerance.
     */
    private void assertRank(String column, String groupColumn, Object group, Object value, double fraction, String what) throws SQLException {
        String where = groupColumn + (group == null ? " is null" : " = " + group);
        assertThat(value).as(what).isNotNull();
        String v = literal(column, value);
        List<Object> counts = duckdb.queryValues("select count(*) filter (where " + column + " < " + v + "), count(*) filter (where "
                + column + " <= " + v + "), count(" + column + ") from sample where " + where).get(0);
        double n = ((Number) counts.get(2)).doubleValue();
        double below = ((Number) counts.get(0)).doubleValue() / n;
        double atOrBelow = ((Number) counts.get(1)).doubleValue() / n;
        double tolerance = Math.max(RANK_TOLERANCE, 1 / n);
        assertThat(below).as("%s = %s: the share below it", what, value).isLessThanOrEqualTo(fraction + tolerance);
        assertThat(atOrBelow).as("%s = %s: the share at or below it", what, value).isGreaterThanOrEqualTo(fraction - tolerance);
    }

    /** {@code value} (as Quiver returns it) as a DuckDB literal of {@code column}'s type. */
    private static String literal(String column, Object value) {
        return switch (column) {
            case "dt" -> "DATE '" + LocalDate.ofEpochDay(((Number) value).longValue()) + "'";
            case "ts" -> "make_timestamp(" + value + "::BIGINT)";
            case "f" -> Double.toString((Double) value) + "::DOUBLE";
            case "m" -> ((BigDecimal) value).toPlainString();
            default -> Objects.toString(value);
        };
    }

    private static List<List<Object>> sortedByFirst(List<List<Object>> rows) {
        List<List<Object>> sorted = new ArrayList<>(rows);
        sorted.sort((a, b) -> a.get(0) == null ? (b.get(0) == null ? 0 : 1) : b.get(0) == null ? -1
                : Long.compare(((Number) a.get(0)).longValue(), ((Number) b.get(0)).longValue()));
        return sorted;
    }

    private static void assertError(QuerySession session, String sql, ErrorCode code, String message) {
        assertThatThrownBy(() -> session.executeScript(sql)).as(sql)
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(code))
                .hasMessageContaining(message);
    }
}
