package dev.quiver.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.expr.kernel.DateKernels;
import dev.quiver.engine.expr.kernel.TimestampText;
import dev.quiver.engine.types.QuiverTypes;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Date and time SQL end to end against DuckDB in-process on the same rows: functions and
 * operators on columns with NULLs and edge values (leap days, month and year ends, ISO weeks at
 * year edges, dates before 1970 and far in the future, timestamps with microseconds), result
 * types included; and every function on a constant equal to the same function on a column
 * holding that constant (what folding gives must be what the engine computes).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DateTimeSqlTest {
    private static final List<String> DATES = List.of("1900-02-28", "1900-03-01", "1969-12-31", "1970-01-01", "1999-12-31", "2000-02-29",
            "2004-12-31", "2020-12-31", "2021-01-03", "2021-01-04", "2024-01-01", "2024-01-31", "2024-02-29", "2024-12-30", "2026-01-01",
            "9999-12-31");
    private static final List<String> TIMES = List.of("00:00:00", "23:59:59.999999", "12:00:00", "13:04:05.123456", "00:00:00.000001",
            "06:30:00.5", "23:00:00", "10:11:12");

    private MemoryCatalog catalog;
    private Connection duck;
    private QuerySession session;

    @BeforeAll
    void load() throws SQLException {
        Schema schema = new Schema(List.of(
                QuiverTypes.field("id", QuiverTypes.INT32, false),
                QuiverTypes.field("d", QuiverTypes.DATE32, true),
                QuiverTypes.field("t", QuiverTypes.TIMESTAMP, true),
                QuiverTypes.field("d2", QuiverTypes.DATE32, true),
                QuiverTypes.field("n", QuiverTypes.INT32, true),
                QuiverTypes.field("s", QuiverTypes.UTF8, true)));
        List<List<Object>> rows = new ArrayList<>();
        for (int i = 0; i < DATES.size(); i++) {
            int day = day(DATES.get(i));
            long micros = TimestampText.parse(DATES.get(i) + " " + TIMES.get(i % TIMES.size()));
            int other = day(DATES.get((i * 7 + 3) % DATES.size()));
            rows.add(Arrays.asList(i, day, micros, other, i * 3 - 20, TimestampText.format(micros)));
        }
        rows.add(Arrays.asList(100, null, null, null, null, null));
        rows.add(Arrays.asList(101, day("2024-03-31"), null, day("2024-02-29"), 1, "2024-03-31"));
        catalog = new MemoryCatalog().add("dt", schema, rows);
        duck = DriverManager.getConnection("jdbc:duckdb:");
        try (Statement statement = duck.createStatement()) {
            statement.execute("CREATE TABLE dt (id INTEGER, d DATE, t TIMESTAMP, d2 DATE, n INTEGER, s VARCHAR)");
        }
        // day numbers and microseconds: JDBC's date conversions use the Julian calendar before 1582
        try (PreparedStatement insert = duck.prepareStatement("INSERT INTO dt VALUES (?, DATE '1970-01-01' + CAST(? AS INTEGER), "
                + "make_timestamp(CAST(? AS BIGINT)), DATE '1970-01-01' + CAST(? AS INTEGER), ?, ?)")) {
            for (List<Object> row : rows) {
                for (int c = 0; c < row.size(); c++) {
                    insert.setObject(c + 1, row.get(c));
                }
                insert.addBatch();
            }
            insert.executeBatch();
        }
        session = QuerySession.builder().catalog(catalog).targetPartitions(3).batchSize(4).build();
    }

    @AfterAll
    void close() throws SQLException {
        assertThat(session.memoryPool().used()).isZero();
        session.close();
        duck.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        // EXTRACT and date_part of every field, on dates and timestamps
        "select id, extract(year from d), extract(quarter from d), extract(month from d), extract(week from d), extract(day from d) from dt",
        "select id, extract(dow from d), extract(isodow from d), extract(doy from d), extract(isoyear from d), extract(epoch from d) from dt",
        "select id, extract(decade from d), extract(century from d), extract(millennium from d) from dt",
        "select id, extract(hour from t), extract(minute from t), extract(second from t), extract(millisecond from t), extract(microsecond from t) from dt",
        "select id, extract(dow from t), extract(week from t), extract(epoch from t), extract(doy from t), extract(hour from d) from dt",
        "select id, date_part('dow', d), date_part('week', t), date_part('yearweek', d), date_part('era', d), date_part('julian', t) from dt",
        "select id, year(d), quarter(t), month(d), week(d), weekofyear(t), day(d), dayofmonth(t), dayofweek(d), weekday(t) from dt",
        "select id, isodow(d), dayofyear(t), isoyear(d), yearweek(t), decade(d), century(t), millennium(d), era(t) from dt",
        "select id, hour(t), minute(t), second(t), millisecond(t), microsecond(t), epoch(t), epoch_ms(t), epoch_us(t) from dt",
        // date_trunc, date_diff, date_sub
        "select id, date_trunc('year', d), date_trunc('quarter', t), date_trunc('month', d), date_trunc('week', t), date_trunc('day', t) from dt",
        "select id, date_trunc('hour', t), date_trunc('minute', t), date_trunc('second', t), date_trunc('millisecond', t), date_trunc('isoyear', d) from dt",
        "select id, date_trunc('decade', d), date_trunc('century', t), date_trunc('millennium', d), date_trunc('microsecond', t) from dt",
        "select id, date_diff('year', d, d2), date_diff('quarter', d, d2), date_diff('month', d, d2), date_diff('week', d, d2), date_diff('day', d, d2) from dt",
        "select id, date_diff('hour', t, d2), date_diff('minute', t, d2), date_diff('second', t, d2), date_diff('isoyear', d, d2) from dt",
        "select id, date_sub('month', d, d2), date_sub('year', t, d2), date_sub('day', t, d2), date_sub('hour', t, d2), date_sub('week', d, d2) from dt",
        "select id, datediff('day', d, d2), datepart('dow', d), date_diff('week', d, d2 + 1), date_diff('day', d, current_date) > 0 from dt",
        // arithmetic
        "select id, d + 1, d - 1, 30 + d, d + n, d - n, d - d2, d2 - d from dt",
        "select id, d + interval '1' day, d - interval '1' month, d + interval '1' year, d + interval '90' minute, d - interval '3' hour from dt",
        "select id, t + interval '1' month, t - interval '1' month, t + interval '90' minute, t - interval '1' second, t + interval '2' year from dt",
        "select id, t + interval '1' day * n, d + n * interval '1' hour, t + interval '14' month, t - interval '26' hour from dt",
        "select id, t + interval '0.25' second, interval '1' day + t, interval '2' month + d, d + interval 3 day from dt",
        "select id, d + interval '1' month + interval '1' day, (d + interval '1' month) - interval '1' month from dt",
        // comparisons and casts between DATE, TIMESTAMP and VARCHAR
        "select id from dt where d < timestamp '2024-01-01 10:00:00'",
        "select id from dt where d <= timestamp '2000-02-29 00:00:00' or d > timestamp '2024-12-30 00:00:01'",
        "select id from dt where d = timestamp '2024-01-01 00:00:00'",
        "select id from dt where d = timestamp '2024-01-01 00:00:01'",
        "select id from dt where t >= d and t < d + interval '12' hour",
        "select id from dt where d between date '2000-01-01' and timestamp '2024-02-29 12:00:00'",
        "select id from dt where d >= '2020-12-31' and t < '2024-01-31 12:00:00'",
        "select id, d = t, d < t, t <= d2, d <> d2 from dt",
        "select id, cast(t as date), cast(d as timestamp), cast(d as varchar), cast(t as varchar), cast(s as timestamp), cast(s as date) from dt",
        "select id, cast('2024-01-01 10:00:00' as timestamp), cast('2024-01-01' as timestamp), cast('2024-01-01T10:00:00.5' as timestamp) from dt",
        "select id, cast(cast(t as varchar) as timestamp) = t, cast(cast(d as varchar) as date) = d from dt",
        // construction, formatting, names
        "select id, make_date(year(d), month(d), day(d)), last_day(d), last_day(t), dayname(d), monthname(t) from dt",
        "select id, make_timestamp(year(t), month(t), day(t), hour(t), minute(t), 30.5), make_timestamp(epoch_us(t)), epoch_ms(epoch_ms(t)) from dt",
        "select id, strftime(t, '%Y-%m-%d %H:%M:%S.%f'), strftime(d, '%a %d %b %Y, week %V (%G), day %j'), strftime(t, '%I:%M %p') from dt",
        "select id, strptime(s, '%Y-%m-%d %H:%M:%S.%f') from dt where s like '%.%'",
        "select id, try_strptime(s, '%Y-%m-%d'), strptime(strftime(d, '%d/%m/%Y'), '%d/%m/%Y') from dt",
        // grouping and ordering on date parts
        "select date_trunc('month', d) as m, count(*) from dt group by date_trunc('month', d)",
        "select extract(dow from d) as w, count(*), min(t), max(d) from dt group by extract(dow from d)",
        "select year(d), count(distinct month(d)) from dt group by year(d)",
    })
    void matchesDuckDb(String sql) throws SQLException {
        assertSameRows(sql, sql);
    }

    /** Where DuckDB spells a construct differently: Quiver's SQL, then DuckDB's. */
    @ParameterizedTest
    @ValueSource(strings = {
        "select id, timestampadd(minute, 90, t), timestampadd(month, 1, d), timestampadd(day, n, d) from dt"
                + " ::: select id, t + interval 90 minute, cast(d + interval 1 month as date), d + n from dt",
        "select id, to_timestamp(epoch_us(t) / 1000000.0) from dt ::: select id, to_timestamp(epoch_us(t) / 1000000.0) at time zone 'UTC' from dt",
        "select id, timestampdiff(day, d, d2), timestampdiff(month, t, d2), timestampdiff(hour, t, d2) from dt"
                + " ::: select id, date_sub('day', d, d2), date_sub('month', t, d2), date_sub('hour', t, d2) from dt",
    })
    void matchesDuckDbSpelledDifferently(String pair) throws SQLException {
        String[] sides = pair.split(" ::: ");
        assertSameRows(sides[0], sides[1]);
    }

    /** Each template on every row's value as a column and as a literal: the results must be equal. */
    static Stream<String> templates() {
        List<String> templates = new ArrayList<>();
        for (String part : List.of("year", "quarter", "month", "week", "day", "dow", "isodow", "doy", "isoyear", "yearweek", "decade",
                "century", "millennium", "era", "epoch", "julian", "hour", "minute", "second", "millisecond", "microsecond")) {
            templates.add("date_part('" + part + "', {t})");
            templates.add("date_part('" + part + "', {d})");
        }
        for (String field : List.of("year", "quarter", "month", "week", "day", "dow", "isodow", "doy", "isoyear", "epoch", "hour", "minute",
                "second", "millisecond", "microsecond", "decade", "century", "millennium")) {
            templates.add("extract(" + field + " from {t})");
            templates.add("extract(" + field + " from {d})");
        }
        for (String unit : List.of("year", "quarter", "month", "week", "day", "hour", "minute", "second", "millisecond", "isoyear", "decade")) {
            templates.add("date_trunc('" + unit + "', {t})");
            templates.add("date_diff('" + unit + "', {d}, {t})");
            templates.add("date_sub('" + unit + "', {t}, {d})");
        }
        templates.addAll(List.of("{d} + 40", "{d} - 400", "{d} - date '2000-02-29'", "{d} + interval '1' month", "{d} - interval '1' year",
                "{d} + interval '90' minute", "{t} + interval '1' month", "{t} - interval '1' day", "{t} + interval '0.001' second",
                "{t} - interval '25' hour", QUIVER_ONLY + "timestampadd(month, -13, {t})", QUIVER_ONLY + "timestampdiff(month, {d}, {t})",
                QUIVER_ONLY + "timestampadd(microsecond, 7, {t})", QUIVER_ONLY + "timestampadd(week, 3, {d})", "last_day({t})",
                "dayname({d})", "monthname({t})", "strftime({t}, '%G-W%V-%u %H:%M:%S.%f')", "epoch_ms({t})", "cast({t} as date)",
                "cast({d} as timestamp)", "cast({d} as varchar)", "{d} < {t}", "{d} = {t}",
                "make_date(year({d}), 2, 28)", "date_trunc('week', {d}) + interval '6' day"));
        return templates.stream();
    }

    /** Marks a template DuckDB does not have (TIMESTAMPADD, TIMESTAMPDIFF): checked literal against column only. */
    private static final String QUIVER_ONLY = "quiver only: ";

    @ParameterizedTest
    @MethodSource("templates")
    void literalEqualsColumn(String marked) throws SQLException {
        String template = marked.replace(QUIVER_ONLY, "");
        List<List<Object>> columns = session.executeScript("select id, " + template.replace("{d}", "d").replace("{t}", "t")
                + " from dt where d is not null and t is not null order by id").rows();
        List<List<Object>> values = session.executeScript("select id, d, t from dt where d is not null and t is not null order by id").rows();
        for (int i = 0; i < values.size(); i++) {
            String date = "date '" + formatDate((Integer) values.get(i).get(1)) + "'";
            String timestamp = "timestamp '" + TimestampText.format((Long) values.get(i).get(2)) + "'";
            String literal = "select " + template.replace("{d}", date).replace("{t}", timestamp);
            Object folded = session.executeScript(literal).rows().get(0).get(0);
            assertThat(folded).as("%s vs the column value of row %s", literal, values.get(i).get(0)).isEqualTo(columns.get(i).get(1));
        }
        if (marked.startsWith(QUIVER_ONLY)) {
            return;
        }
        List<List<Object>> expected = duckRows("select id, " + template.replace("{d}", "d").replace("{t}", "t")
                + " from dt where d is not null and t is not null order by id");
        assertThat(normalize(columns)).as("DuckDB: " + template).isEqualTo(expected);
    }

    @Test
    void badInputIsAClearError() {
        assertError("select date_part('fortnight', d) from dt", ErrorCode.INVALID_ARGUMENT, "Unknown date part 'fortnight'");
        assertError("select date_trunc('era', d) from dt", ErrorCode.INVALID_ARGUMENT, "era");
        assertError("select strftime(d, '%Q') from dt", ErrorCode.INVALID_ARGUMENT, "%Q");
        assertError("select strptime(s, '%Y-%m-%d') from dt", ErrorCode.INVALID_ARGUMENT, "Could not parse");
        assertError("select make_date(2023, 2, 29)", ErrorCode.INVALID_ARGUMENT, "2023-2-29");
        assertError("select cast('2024-13-01' as date)", ErrorCode.INVALID_CAST, "2024-13-01");
        assertError("select date_part(s, d) from dt", ErrorCode.NOT_SUPPORTED, "must be a constant");
        assertError("select d + 1.5 from dt", ErrorCode.TYPE_MISMATCH, "");
        assertError("select t - t from dt", ErrorCode.TYPE_MISMATCH, "");
        // the session stays usable
        assertThat(session.executeScript("select count(*) from dt").rows()).containsExactly(List.of(18L));
    }

    @Test
    void nowIsOneInstantPerQuery() {
        List<List<Object>> rows = session.executeScript("select now(), current_timestamp, localtimestamp, get_current_timestamp(), "
                + "today(), current_date, cast(now() as date) from dt").rows();
        assertThat(rows).hasSize(18);
        assertThat(rows.stream().distinct()).hasSize(1);
        List<Object> row = rows.get(0);
        assertThat(row.subList(0, 4).stream().distinct()).hasSize(1);
        assertThat(row.get(4)).isEqualTo(row.get(5)).isEqualTo(row.get(6));
        long now = LocalDateTime.now(ZoneOffset.UTC).toEpochSecond(ZoneOffset.UTC) * 1_000_000L;
        assertThat((Long) row.get(0)).isBetween(now - 3_600_000_000L, now + 3_600_000_000L);
    }

    private void assertError(String sql, ErrorCode code, String message) {
        try {
            session.executeScript(sql).rows();
        } catch (QuiverException e) {
            assertThat(e.errorCode()).as(sql + ": " + e.getMessage()).isEqualTo(code);
            assertThat(e.getMessage()).as(sql).contains(message);
            return;
        }
        throw new AssertionError(sql + " did not fail");
    }

    private void assertSameRows(String quiverSql, String duckSql) throws SQLException {
        QueryResult result = session.executeScript(quiverSql);
        List<List<Object>> expected = duckRows(duckSql);
        List<String> families = duckFamilies(duckSql);
        List<Field> fields = result.schema().getFields();
        for (int i = 0; i < fields.size(); i++) {
            assertThat(family(fields.get(i).getType())).as("type of column %d of %s", i + 1, quiverSql).isEqualTo(families.get(i));
        }
        assertThat(sorted(normalize(result.rows()))).as(quiverSql).isEqualTo(sorted(expected));
    }

    private List<List<Object>> duckRows(String sql) throws SQLException {
        List<List<Object>> rows = new ArrayList<>();
        try (Statement statement = duck.createStatement(); ResultSet result = statement.executeQuery(sql)) {
            int columns = result.getMetaData().getColumnCount();
            while (result.next()) {
                List<Object> row = new ArrayList<>();
                for (int i = 1; i <= columns; i++) {
                    Object value = result.getObject(i);
                    if (value instanceof LocalDate date) {
                        value = (int) date.toEpochDay();
                    } else if (value instanceof java.sql.Date date) {
                        value = (int) date.toLocalDate().toEpochDay();
                    } else if (value instanceof LocalDateTime time) {
                        value = time.toEpochSecond(ZoneOffset.UTC) * 1_000_000L + time.getNano() / 1000;
                    } else if (value instanceof java.sql.Timestamp time) {
                        LocalDateTime local = time.toLocalDateTime();
                        value = local.toEpochSecond(ZoneOffset.UTC) * 1_000_000L + local.getNano() / 1000;
                    }
                    row.add(value);
                }
                rows.add(row);
            }
        }
        return normalize(rows);
    }

    private List<String> duckFamilies(String sql) throws SQLException {
        List<String> families = new ArrayList<>();
        try (Statement statement = duck.createStatement(); ResultSet result = statement.executeQuery("select * from (" + sql + ") limit 0")) {
            ResultSetMetaData meta = result.getMetaData();
            for (int i = 1; i <= meta.getColumnCount(); i++) {
                String type = meta.getColumnTypeName(i);
                families.add(switch (type) {
                    case "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT" -> "integer";
                    case "DOUBLE", "FLOAT" -> "double";
                    default -> type.startsWith("DECIMAL") ? "decimal" : type.toLowerCase(java.util.Locale.ROOT);
                });
            }
        }
        return families;
    }

    private static String family(ArrowType type) {
        if (type instanceof ArrowType.Int) {
            return "integer";
        }
        if (type instanceof ArrowType.FloatingPoint) {
            return "double";
        }
        if (type instanceof ArrowType.Decimal) {
            return "decimal";
        }
        return switch (QuiverTypes.sqlName(type)) {
            case "VARCHAR" -> "varchar";
            case "DATE" -> "date";
            case "TIMESTAMP" -> "timestamp";
            case "BOOLEAN" -> "boolean";
            default -> QuiverTypes.sqlName(type);
        };
    }

    private static List<List<Object>> normalize(List<List<Object>> rows) {
        List<List<Object>> out = new ArrayList<>();
        for (List<Object> row : rows) {
            List<Object> normalized = new ArrayList<>();
            for (Object value : row) {
                if (value instanceof Integer || value instanceof Long || value instanceof Short) {
                    value = ((Number) value).longValue();
                } else if (value instanceof Double d) {
                    value = BigDecimal.valueOf(d).setScale(6, RoundingMode.HALF_UP).stripTrailingZeros();
                }
                normalized.add(value);
            }
            out.add(normalized);
        }
        return out;
    }

    private static List<List<Object>> sorted(List<List<Object>> rows) {
        List<List<Object>> copy = new ArrayList<>(rows);
        copy.sort(Comparator.comparing(Objects::toString));
        return copy;
    }

    private static int day(String text) {
        return (int) LocalDate.parse(text).toEpochDay();
    }

    private static String formatDate(int days) {
        StringBuilder text = new StringBuilder();
        DateKernels.format(days, text);
        return text.toString();
    }
}
