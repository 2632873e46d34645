package dev.quiver.engine.expr;

import static dev.quiver.engine.expr.ExprTesting.col;
import static dev.quiver.engine.expr.ExprTesting.lit;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.engine.batch.Batches;
import dev.quiver.engine.batch.VectorValues;
import dev.quiver.engine.testing.TestingContext;
import dev.quiver.engine.types.QuiverTypes;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/** Random rows, evaluated here and by DuckDB in-process; every value must agree. */
class DuckDbExprComparisonTest {
    private static final int ROWS = 3000;
    private static final Schema SCHEMA = new Schema(List.of(
            QuiverTypes.field("a", QuiverTypes.decimal(15, 2), true),
            QuiverTypes.field("b", QuiverTypes.decimal(12, 4), true),
            QuiverTypes.field("i", QuiverTypes.INT32, true),
            QuiverTypes.field("l", QuiverTypes.INT64, true),
            QuiverTypes.field("s", QuiverTypes.UTF8, true),
            QuiverTypes.field("d", QuiverTypes.DATE32, true),
            QuiverTypes.field("w", QuiverTypes.decimal(38, 6), true)));

    private record Case(String sql, PhysicalExpr expr) {}

    private static PhysicalExpr c(int index) {
        return col(SCHEMA, index);
    }

    private static BinaryExpr bin(BinaryOperator op, PhysicalExpr left, PhysicalExpr right, ArrowType type) {
        return new BinaryExpr(op, left, right, type);
    }

    private static List<Case> cases() {
        ArrowType bool = QuiverTypes.BOOLEAN;
        List<Case> cases = new ArrayList<>(List.of(
                new Case("a + b", bin(BinaryOperator.PLUS, c(0), c(1), QuiverTypes.decimal(17, 4))),
                new Case("a - b", bin(BinaryOperator.MINUS, c(0), c(1), QuiverTypes.decimal(17, 4))),
                new Case("a * b", bin(BinaryOperator.MULTIPLY, c(0), c(1), QuiverTypes.decimal(27, 6))),
                new Case("i * a", bin(BinaryOperator.MULTIPLY, c(2), c(0), QuiverTypes.decimal(25, 2))),
                new Case("a * (1 - b)", bin(BinaryOperator.MULTIPLY, c(0),
                        bin(BinaryOperator.MINUS, lit(1, QuiverTypes.INT32), c(1), QuiverTypes.decimal(15, 4)), QuiverTypes.decimal(30, 6))),
                new Case("w * a", bin(BinaryOperator.MULTIPLY, c(6), c(0), QuiverTypes.decimal(38, 8))),
                new Case("w + b", bin(BinaryOperator.PLUS, c(6), c(1), QuiverTypes.decimal(38, 6))),
                new Case("l + i", bin(BinaryOperator.PLUS, c(3), c(2), QuiverTypes.INT64)),
                new Case("l * i", bin(BinaryOperator.MULTIPLY, c(3), c(2), QuiverTypes.INT64)),
                new Case("l % 7", bin(BinaryOperator.MODULO, c(3), lit(7L, QuiverTypes.INT64), QuiverTypes.INT64)),
                new Case("-a", new NegateExpr(c(0))),
                new Case("a > 5", bin(BinaryOperator.GT, c(0), lit(new BigDecimal("5.00"), QuiverTypes.decimal(15, 2)), bool)),
                new Case("i > a", bin(BinaryOperator.GT, c(2), c(0), bool)),
                new Case("w < b", bin(BinaryOperator.LT, c(6), c(1), bool)),
                new Case("s LIKE '%b%c'", ExprTesting.like(c(4), "%b%c", java.util.Optional.empty(), false)),
                new Case("s >= 'bc'", bin(BinaryOperator.GT_EQ, c(4), lit("bc", QuiverTypes.UTF8), bool)),
                new Case("d <= DATE '1995-06-17'", bin(BinaryOperator.LT_EQ, c(5), lit((int) LocalDate.parse("1995-06-17").toEpochDay(), QuiverTypes.DATE32), bool)),
                new Case("a > b AND i < 3", bin(BinaryOperator.AND, bin(BinaryOperator.GT, c(0), c(1), bool),
                        bin(BinaryOperator.LT, c(2), lit(3, QuiverTypes.INT32), bool), bool)),
                new Case("a > b OR i < 3", bin(BinaryOperator.OR, bin(BinaryOperator.GT, c(0), c(1), bool),
                        bin(BinaryOperator.LT, c(2), lit(3, QuiverTypes.INT32), bool), bool)),
                new Case("a IS DISTINCT FROM b", bin(BinaryOperator.IS_DISTINCT_FROM, c(0), c(1), bool)),
                new Case("CAST(a AS DECIMAL(15,1))", new CastExpr(c(0), QuiverTypes.decimal(15, 1))),
                new Case("year(d)", new ScalarFunctionExpr(ExprTesting.function("year"), List.of(c(5)), QuiverTypes.INT64)),
                new Case("substring(s, 2, 2)", new ScalarFunctionExpr(ExprTesting.function("substring"),
                        List.of(c(4), lit(2, QuiverTypes.INT32), lit(2, QuiverTypes.INT32)), QuiverTypes.UTF8)),
                new Case("month(d)", new ScalarFunctionExpr(ExprTesting.function("month"), List.of(c(5)), QuiverTypes.INT64)),
                new Case("day(d)", new ScalarFunctionExpr(ExprTesting.function("day"), List.of(c(5)), QuiverTypes.INT64)),
                new Case("CAST(d AS VARCHAR)", new CastExpr(c(5), QuiverTypes.UTF8)),
                new Case("upper(s) || '-' || s", new ScalarFunctionExpr(ExprTesting.function("||"),
                        List.of(new ScalarFunctionExpr(ExprTesting.function("upper"), List.of(c(4)), QuiverTypes.UTF8), lit("-", QuiverTypes.UTF8), c(4)), QuiverTypes.UTF8)),
                new Case("length(s)", new ScalarFunctionExpr(ExprTesting.function("length"), List.of(c(4)), QuiverTypes.INT64)),
                new Case("abs(w)", new ScalarFunctionExpr(ExprTesting.function("abs"), List.of(c(6)), QuiverTypes.decimal(38, 6))),
                new Case("round(a, 1)", new ScalarFunctionExpr(ExprTesting.function("round"), List.of(c(0), lit(1, QuiverTypes.INT32)), QuiverTypes.decimal(15, 2))),
                new Case("CAST(a AS DOUBLE) * 2", bin(BinaryOperator.MULTIPLY, new CastExpr(c(0), QuiverTypes.FLOAT64), lit(2.0, QuiverTypes.FLOAT64), QuiverTypes.FLOAT64)),
                new Case("i IN (1, 2, 3, -5)", new InListExpr(c(2), List.of(1, 2, 3, -5), false)),
                new Case("s NOT IN ('a', 'bc')", new InListExpr(c(4), List.of("a", "bc"), true)),
                new Case("coalesce(i, 0)", new ScalarFunctionExpr(ExprTesting.function("coalesce"), List.of(c(2), lit(0, QuiverTypes.INT32)), QuiverTypes.INT32)),
                new Case("CASE WHEN i > 0 THEN a ELSE b END", new CaseExpr(List.of(new CaseExpr.WhenThen(
                        bin(BinaryOperator.GT, c(2), lit(0, QuiverTypes.INT32), bool), new CastExpr(c(0), QuiverTypes.decimal(17, 4)))),
                        java.util.Optional.of(new CastExpr(c(1), QuiverTypes.decimal(17, 4))), QuiverTypes.decimal(17, 4)))));
        return cases;
    }

    private static List<List<Object>> randomRows(Random random) {
        String[] alphabet = {"a", "b", "c", "bc", ""};
        List<List<Object>> rows = new ArrayList<>();
        for (int r = 0; r < ROWS; r++) {
            StringBuilder s = new StringBuilder();
            for (int k = random.nextInt(5); k > 0; k--) {
                s.append(alphabet[random.nextInt(alphabet.length)]);
            }
            BigInteger wide = new BigInteger(20 + random.nextInt(60), random);
            rows.add(Arrays.asList(
                    nullOr(random, new BigDecimal(BigInteger.valueOf(random.nextLong() % 1_000_000_000L), 2)),
                    nullOr(random, new BigDecimal(BigInteger.valueOf(random.nextLong() % 100_000_000L), 4)),
                    nullOr(random, random.nextInt(2001) - 1000),
                    nullOr(random, random.nextLong() % 3_000_000_000L),
                    nullOr(random, s.toString()),
                    nullOr(random, 8000 + random.nextInt(3000)),
                    nullOr(random, new BigDecimal(random.nextBoolean() ? wide : wide.negate(), 6))));
        }
        return rows;
    }

    private static Object nullOr(Random random, Object value) {
        return random.nextInt(20) == 0 ? null : value;
    }

    @Test
    void agreesWithDuckDb() throws SQLException {
        List<List<Object>> rows = randomRows(new Random(2026));
        List<Case> cases = cases();
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:"); TestingContext testing = new TestingContext()) {
            load(duck, rows);
            try (VectorSchemaRoot batch = Batches.fromRows(SCHEMA, rows, testing.allocator())) {
                for (Case testCase : cases) {
                    List<Object> expected = duckValues(duck, testCase.sql());
                    try (FieldVector actual = testCase.expr().evaluate(batch, testing.allocator())) {
                        for (int r = 0; r < ROWS; r++) {
                            Object value = VectorValues.get(actual, r);
                            Object want = expected.get(r);
                            if (want instanceof BigDecimal wantDecimal && value instanceof BigDecimal got) {
                                assertThat(got.compareTo(wantDecimal)).as("%s row %d: %s vs DuckDB %s", testCase.sql(), r, got, want).isZero();
                            } else {
                                assertThat(value).as("%s row %d (%s)", testCase.sql(), r, rows.get(r)).isEqualTo(want);
                            }
                        }
                    }
                }
            }
        }
    }

    private static void load(Connection duck, List<List<Object>> rows) throws SQLException {
        try (Statement statement = duck.createStatement()) {
            statement.execute("CREATE TABLE t (id INTEGER, a DECIMAL(15,2), b DECIMAL(12,4), i INTEGER, l BIGINT, s VARCHAR, d DATE, w DECIMAL(38,6))");
        }
        try (PreparedStatement insert = duck.prepareStatement("INSERT INTO t VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
            for (int r = 0; r < rows.size(); r++) {
                List<Object> row = rows.get(r);
                insert.setInt(1, r);
                insert.setObject(2, row.get(0), Types.DECIMAL);
                insert.setObject(3, row.get(1), Types.DECIMAL);
                insert.setObject(4, row.get(2), Types.INTEGER);
                insert.setObject(5, row.get(3), Types.BIGINT);
                insert.setObject(6, row.get(4), Types.VARCHAR);
                insert.setObject(7, row.get(5) == null ? null : LocalDate.ofEpochDay((Integer) row.get(5)));
                insert.setObject(8, row.get(6) == null ? null : row.get(6).toString(), Types.VARCHAR);
                insert.addBatch();
            }
            insert.executeBatch();
        }
    }

    private static List<Object> duckValues(Connection duck, String sql) throws SQLException {
        List<Object> values = new ArrayList<>();
        try (Statement statement = duck.createStatement(); ResultSet result = statement.executeQuery("SELECT " + sql + " FROM t ORDER BY id")) {
            while (result.next()) {
                Object value = result.getObject(1);
                if (value instanceof Integer i && sql.startsWith("year")) {
                    value = (long) i;
                } else if (value instanceof java.time.LocalDate date) {
                    value = (int) date.toEpochDay();
                } else if (value instanceof BigInteger big) {
                    value = big.longValueExact();
                }
                values.add(value);
            }
        }
        return values;
    }

}
