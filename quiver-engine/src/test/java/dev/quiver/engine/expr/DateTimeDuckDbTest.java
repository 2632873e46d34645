package dev.quiver.engine.expr;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.engine.batch.Batches;
import dev.quiver.engine.batch.VectorValues;
import dev.quiver.engine.expr.function.ArgumentTypes;
import dev.quiver.engine.expr.function.FunctionRegistry;
import dev.quiver.engine.expr.function.ScalarFunction;
import dev.quiver.engine.expr.kernel.DatePart;
import dev.quiver.engine.testing.TestingContext;
import dev.quiver.engine.types.QuiverTypes;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every date and time function of the registry on columns of edge values (leap days, month and
 * year ends, ISO weeks at year edges, dates before 1970 and far in the future, timestamps with
 * microseconds before and after 1970, NULLs), evaluated here and by DuckDB in-process on the
 * same rows; every value must agree. Each case is written once, as DuckDB SQL; its Quiver
 * expression is the registry call of the same name over the same columns and literals.
 */
class DateTimeDuckDbTest {
    private static final Schema SCHEMA = ExprTesting.schema(QuiverTypes.DATE32, QuiverTypes.TIMESTAMP, QuiverTypes.DATE32,
            QuiverTypes.TIMESTAMP, QuiverTypes.INT32);
    /** Column names of the SQL text, in schema order. */
    private static final List<String> COLUMNS = List.of("d", "t", "d2", "t2", "i");
    private static final Pattern CALL = Pattern.compile("(\\w+)\\((.*)\\)");

    private static List<List<Object>> rows;
    private static Connection duck;
    private static TestingContext testing;
    private static VectorSchemaRoot batch;

    @BeforeAll
    static void load() throws SQLException {
        rows = rows(new Random(11));
        duck = DriverManager.getConnection("jdbc:duckdb:");
        try (Statement statement = duck.createStatement()) {
            statement.execute("CREATE TABLE t (id INTEGER, d DATE, t TIMESTAMP, d2 DATE, t2 TIMESTAMP, i INTEGER)");
        }
        // day numbers and microseconds, not java.time values: JDBC's conversions use the Julian calendar before 1582
        try (PreparedStatement insert = duck.prepareStatement("INSERT INTO t VALUES (?, DATE '1970-01-01' + CAST(? AS INTEGER), "
                + "make_timestamp(CAST(? AS BIGINT)), DATE '1970-01-01' + CAST(? AS INTEGER), make_timestamp(CAST(? AS BIGINT)), ?)")) {
            for (int r = 0; r < rows.size(); r++) {
                List<Object> row = rows.get(r);
                insert.setInt(1, r);
                for (int c = 0; c < 5; c++) {
                    insert.setObject(c + 2, row.get(c));
                }
                insert.addBatch();
            }
            insert.executeBatch();
        }
        testing = new TestingContext();
        batch = Batches.fromRows(SCHEMA, rows, testing.allocator());
    }

    @AfterAll
    static void close() throws SQLException {
        batch.close();
        testing.close();
        duck.close();
    }

    static List<String> cases() {
        List<String> cases = new ArrayList<>();
        for (DatePart part : DatePart.values()) {
            cases.add("date_part('" + part.canonicalName() + "', d)");
            cases.add("date_part('" + part.canonicalName() + "', t)");
            if (part != DatePart.ERA) {
                cases.add("date_trunc('" + part.canonicalName() + "', d)");
                cases.add("date_trunc('" + part.canonicalName() + "', t)");
                cases.add("date_diff('" + part.canonicalName() + "', d, d2)");
                cases.add("date_diff('" + part.canonicalName() + "', t, t2)");
                cases.add("date_diff('" + part.canonicalName() + "', d, t2)");
            }
            if (part != DatePart.ERA && part != DatePart.ISOYEAR && part != DatePart.YEARWEEK) {
                cases.add("date_sub('" + part.canonicalName() + "', t, t2)");
                cases.add("date_sub('" + part.canonicalName() + "', d, d2)");
            }
        }
        cases.addAll(List.of("year(t)", "quarter(d)", "month(t)", "week(d)", "weekofyear(t)", "day(d)", "dayofmonth(t)", "dayofweek(d)",
                "weekday(t)", "isodow(d)", "dayofyear(t)", "isoyear(d)", "yearweek(t)", "decade(d)", "century(t)", "millennium(d)",
                "era(d)", "hour(t)", "minute(t)", "second(t)", "millisecond(t)", "microsecond(t)", "epoch(t)", "epoch(d)", "julian(t)",
                "last_day(d)", "last_day(t)", "dayname(d)", "monthname(t)", "epoch_ms(t)", "epoch_ms(d)", "epoch_us(t)",
                "make_date(year(d), month(d), day(d))", "make_timestamp(epoch_us(t))", "epoch_ms(epoch_ms(t))",
                "make_timestamp(year(t), month(t), day(t), hour(t), minute(t), second(t) + microsecond(t) % 1000000 / 1000000.0)",
                "strftime(t, '%Y-%m-%d %H:%M:%S.%f')", "strftime(d, '%a %A %w %u %b %B %-m/%-d/%y %j %-j')",
                "strftime(t, '%G-W%V %U %W %I:%M %p %g %c|%x|%X %%')", "strftime(t, '%-H %-I %-M %-S %z%Z')",
                "strptime(strftime(t, '%d.%m.%Y %H:%M:%S.%f'), '%d.%m.%Y %H:%M:%S.%f')",
                "strptime(strftime(t, '%A %d %B %Y %I:%M %p'), '%A %d %B %Y %I:%M %p')",
                "strptime(strftime(d, '%Y%j'), '%Y%j')", "try_strptime(strftime(d, '%y/%m/%d'), '%y/%m/%d')",
                "try_strptime(strftime(t, '%H:%M'), '%Y')",
                "date_add_days(d, i)", "date_sub_days(d, i)", "date_add_months(d, i)", "date_add_months(t, i)",
                "timestamp_add_micros(t, i)", "date_diff('day', d2, d)"));
        return cases;
    }

    /** How DuckDB writes the operators our syntax-only functions stand for. */
    private static final Map<String, String> DUCKDB_FORMS = Map.of(
            "date_add_days(d, i)", "d + i",
            "date_sub_days(d, i)", "d - i",
            "date_add_months(d, i)", "cast(d + to_months(i) as date)",
            "date_add_months(t, i)", "t + to_months(i)",
            "timestamp_add_micros(t, i)", "t + to_microseconds(i * 1234567)",
            "date_diff('day', d2, d)", "d - d2");

    @ParameterizedTest
    @MethodSource("cases")
    void agreesWithDuckDb(String sql) throws SQLException {
        List<Object> expected = duckValues(DUCKDB_FORMS.getOrDefault(sql, sql));
        PhysicalExpr expr = parse(sql.startsWith("timestamp_add_micros") ? "timestamp_add_micros(t, i * 1234567)" : sql);
        try (FieldVector actual = expr.evaluate(batch, testing.allocator())) {
            for (int r = 0; r < rows.size(); r++) {
                Object value = VectorValues.get(actual, r);
                Object want = expected.get(r);
                if (want instanceof Double d && value instanceof Double v) {
                    assertThat(v).as("%s row %d %s", sql, r, rows.get(r)).isCloseTo(d, org.assertj.core.data.Offset.offset(Math.abs(d) * 1e-12));
                } else {
                    assertThat(value).as("%s row %d %s", sql, r, rows.get(r)).isEqualTo(want);
                }
            }
        }
    }

    /** A registry call as written in a case: name(args), an arg a column, a literal, a call or {@code a op literal}. */
    private static PhysicalExpr parse(String text) {
        text = text.trim();
        Matcher call = CALL.matcher(text);
        if (call.matches() && FunctionRegistry.builtins().lookup(call.group(1)).isPresent()) {
            ScalarFunction function = FunctionRegistry.builtins().require(call.group(1));
            List<PhysicalExpr> args = splitArguments(call.group(2)).stream().map(DateTimeDuckDbTest::parse).toList();
            return function.call(args, function.resultType(ArgumentTypes.of(args)));
        }
        for (List<String> tier : List.of(List.of(" + "), List.of(" % ", " / ", " * "))) {
            String op = tier.stream().max(java.util.Comparator.comparingInt(text::lastIndexOf)).orElseThrow();
            int at = text.lastIndexOf(op);
            if (at > 0) {
                PhysicalExpr left = parse(text.substring(0, at));
                PhysicalExpr right = parse(text.substring(at + op.length()));
                BinaryOperator operator = switch (op.trim()) {
                    case "+" -> BinaryOperator.PLUS;
                    case "%" -> BinaryOperator.MODULO;
                    case "/" -> BinaryOperator.DIVIDE;
                    default -> BinaryOperator.MULTIPLY;
                };
                boolean decimal = left.type() instanceof org.apache.arrow.vector.types.pojo.ArrowType.FloatingPoint
                        || right.type() instanceof org.apache.arrow.vector.types.pojo.ArrowType.FloatingPoint;
                org.apache.arrow.vector.types.pojo.ArrowType type = decimal ? QuiverTypes.FLOAT64 : QuiverTypes.INT64;
                return new BinaryExpr(operator, CastExpr.to(left, type), CastExpr.to(right, type), type);
            }
        }
        if (text.startsWith("'")) {
            return new LiteralExpr(text.substring(1, text.length() - 1), QuiverTypes.UTF8);
        }
        if (COLUMNS.contains(text)) {
            return ExprTesting.col(SCHEMA, COLUMNS.indexOf(text));
        }
        return text.contains(".") ? new LiteralExpr(Double.parseDouble(text), QuiverTypes.FLOAT64) : new LiteralExpr(Long.parseLong(text), QuiverTypes.INT64);
    }

    private static List<String> splitArguments(String text) {
        List<String> args = new ArrayList<>();
        int depth = 0;
        boolean quoted = false;
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\'') {
                quoted = !quoted;
            } else if (!quoted && c == '(') {
                depth++;
            } else if (!quoted && c == ')') {
                depth--;
            } else if (!quoted && depth == 0 && c == ',') {
                args.add(text.substring(start, i));
                start = i + 1;
            }
        }
        args.add(text.substring(start));
        return args;
    }

    private static List<Object> duckValues(String sql) throws SQLException {
        String type;
        try (Statement statement = duck.createStatement(); ResultSet result = statement.executeQuery("SELECT typeof(" + sql + ") FROM t LIMIT 1")) {
            result.next();
            type = result.getString(1);
        }
        String value = switch (type) {
            case "DATE" -> "(" + sql + ") - DATE '1970-01-01'";
            case "TIMESTAMP" -> "epoch_us(" + sql + ")";
            default -> sql;
        };
        List<Object> values = new ArrayList<>();
        try (Statement statement = duck.createStatement(); ResultSet result = statement.executeQuery("SELECT " + value + " FROM t ORDER BY id")) {
            while (result.next()) {
                Object v = result.getObject(1);
                if (type.equals("DATE") && v != null) {
                    v = ((Number) v).intValue();
                } else if (v instanceof Integer i) {
                    v = (long) i;
                }
                values.add(v);
            }
        }
        return values;
    }

    /** Edge dates paired with neighbours and random partners, timestamps at edge times of day, and NULLs. */
    private static List<List<Object>> rows(Random random) {
        List<String> edges = List.of("0001-01-01", "1000-01-01", "1582-10-15", "1899-12-31", "1900-01-01", "1900-02-28", "1900-03-01",
                "1960-02-29", "1969-12-28", "1969-12-31", "1970-01-01", "1970-01-04", "1970-01-05", "1999-12-31", "2000-01-01",
                "2000-02-29", "2000-12-31", "2004-02-29", "2004-12-31", "2005-01-02", "2008-12-29", "2009-12-31", "2010-01-03",
                "2019-12-30", "2020-12-31", "2021-01-01", "2021-01-03", "2021-01-04", "2023-02-28", "2024-01-01", "2024-01-31",
                "2024-02-29", "2024-03-31", "2024-12-30", "2024-12-31", "2025-12-29", "2026-01-01", "2099-12-31", "2400-02-29",
                "9999-12-31");
        long[] times = {0, 1, 999_999, 1_000_000, 43_200_000_000L, 43_199_999_999L, 86_399_999_999L, 3_600_000_000L * 13 + 4 * 60_000_000L
                + 5_123_456L, 59_999_999L, 60_000_000L};
        List<List<Object>> rows = new ArrayList<>();
        for (String edge : edges) {
            int day = (int) LocalDate.parse(edge).toEpochDay();
            for (int k = 0; k < 4; k++) {
                int other = k == 0 ? day + 1 : k == 1 ? day - 1 : k == 2 ? day + random.nextInt(800) - 400
                        : (int) LocalDate.parse(edges.get(random.nextInt(edges.size()))).toEpochDay();
                long time = times[random.nextInt(times.length)];
                long otherTime = k == 0 ? time : times[random.nextInt(times.length)];
                rows.add(row(day, day * 86_400_000_000L + time, other, other * 86_400_000_000L + otherTime, random.nextInt(61) - 30));
            }
        }
        for (int r = 0; r < 300; r++) {
            int day = random.nextInt(2_932_896) - 719_162; // 0001-01-01 to 9999-12-31
            int other = random.nextBoolean() ? day + random.nextInt(2000) - 1000 : random.nextInt(100_000) - 20_000;
            rows.add(row(day, day * 86_400_000_000L + Math.floorMod(random.nextLong(), 86_400_000_000L), other,
                    other * 86_400_000_000L + Math.floorMod(random.nextLong(), 86_400_000_000L), random.nextInt(1000) - 500));
        }
        rows.add(Arrays.asList(null, null, null, null, null));
        rows.add(Arrays.asList(null, 0L, 18_000, null, 3));
        rows.add(Arrays.asList(19_000, null, null, 5L, null));
        return rows.stream().map(r -> r.stream().collect(Collectors.toList())).toList();
    }

    private static List<Object> row(int day, long micros, int otherDay, long otherMicros, int amount) {
        int clamped = Math.max(-719_162, Math.min(2_932_896, otherDay));
        return Arrays.asList(day, micros, clamped, clamped * 86_400_000_000L + Math.floorMod(otherMicros, 86_400_000_000L), amount);
    }
}
