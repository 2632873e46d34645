package dev.quiver.engine.expr;

import static dev.quiver.engine.expr.ExprTesting.col;
import static dev.quiver.engine.expr.ExprTesting.eval;
import static dev.quiver.engine.expr.ExprTesting.lit;
import static dev.quiver.engine.expr.ExprTesting.row;
import static dev.quiver.engine.expr.ExprTesting.schema;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.engine.testing.TestingContext;
import dev.quiver.engine.types.QuiverTypes;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

class ComparisonExprTest {
    private static final List<BinaryOperator> OPS = List.of(BinaryOperator.EQ, BinaryOperator.NOT_EQ, BinaryOperator.LT, BinaryOperator.LT_EQ,
            BinaryOperator.GT, BinaryOperator.GT_EQ);

    private static Boolean expected(BinaryOperator op, Integer cmp) {
        if (cmp == null) {
            return null;
        }
        return switch (op) {
            case EQ -> cmp == 0;
            case NOT_EQ -> cmp != 0;
            case LT -> cmp < 0;
            case LT_EQ -> cmp <= 0;
            case GT -> cmp > 0;
            default -> cmp >= 0;
        };
    }

    /** Checks every comparison operator, column-column and column-literal, against {@code cmp} of the Java values. */
    private static void checkAll(TestingContext testing, ArrowType leftType, ArrowType rightType, List<List<Object>> rows,
            java.util.Comparator<Object> comparator) {
        Schema schema = schema(leftType, rightType);
        for (BinaryOperator op : OPS) {
            List<Object> actual = eval(testing.allocator(), new BinaryExpr(op, col(schema, 0), col(schema, 1), QuiverTypes.BOOLEAN), schema, rows);
            for (int i = 0; i < rows.size(); i++) {
                Object a = rows.get(i).get(0);
                Object b = rows.get(i).get(1);
                Integer cmp = a == null || b == null ? null : Integer.signum(comparator.compare(a, b));
                assertThat(actual.get(i)).as("%s %s %s", a, op, b).isEqualTo(expected(op, cmp));
            }
            // column op constant and constant op column (the scalar fast paths)
            Object constant = rows.get(rows.size() / 2).get(1);
            if (constant != null) {
                List<Object> right = eval(testing.allocator(), new BinaryExpr(op, col(schema, 0), lit(constant, rightType), QuiverTypes.BOOLEAN), schema, rows);
                List<Object> left = eval(testing.allocator(), new BinaryExpr(op, lit(constant, rightType), col(schema, 0), QuiverTypes.BOOLEAN), schema, rows);
                for (int i = 0; i < rows.size(); i++) {
                    Object a = rows.get(i).get(0);
                    assertThat(right.get(i)).as("%s %s %s", a, op, constant).isEqualTo(expected(op, a == null ? null : Integer.signum(comparator.compare(a, constant))));
                    assertThat(left.get(i)).as("%s %s %s", constant, op, a).isEqualTo(expected(op, a == null ? null : Integer.signum(comparator.compare(constant, a))));
                }
            }
        }
    }

    private static int numeric(Object a, Object b) {
        return new BigDecimal(a.toString()).compareTo(new BigDecimal(b.toString()));
    }

    @Test
    void integersOfDifferentWidthsAndDecimals() {
        Random random = new Random(1);
        try (TestingContext testing = new TestingContext()) {
            List<List<Object>> ints = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                ints.add(row(i % 13 == 0 ? null : random.nextInt(21) - 10, i % 11 == 0 ? null : (long) (random.nextInt(21) - 10)));
            }
            checkAll(testing, QuiverTypes.INT32, QuiverTypes.INT64, ints, ComparisonExprTest::numeric);
            List<List<Object>> mixed = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                mixed.add(row(new BigDecimal(BigInteger.valueOf(random.nextInt(2001) - 1000), 2),
                        i % 7 == 0 ? null : new BigDecimal(BigInteger.valueOf(random.nextInt(20001) - 10000), 3)));
            }
            checkAll(testing, QuiverTypes.decimal(15, 2), QuiverTypes.decimal(10, 3), mixed, ComparisonExprTest::numeric);
            List<List<Object>> intDecimal = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                intDecimal.add(row((long) (random.nextInt(21) - 10), new BigDecimal(BigInteger.valueOf(random.nextInt(2001) - 1000), 2)));
            }
            checkAll(testing, QuiverTypes.INT64, QuiverTypes.decimal(15, 2), intDecimal, ComparisonExprTest::numeric);
            List<List<Object>> wide = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                BigInteger big = new BigInteger(120, random).subtract(BigInteger.ONE.shiftLeft(119));
                wide.add(row(new BigDecimal(big, 4), new BigDecimal(big.add(BigInteger.valueOf(random.nextInt(3) - 1)), 4)));
            }
            checkAll(testing, QuiverTypes.decimal(38, 4), QuiverTypes.decimal(38, 4), wide, ComparisonExprTest::numeric);
            List<List<Object>> doubles = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                doubles.add(row(random.nextInt(7) / 2.0, new BigDecimal(BigInteger.valueOf(random.nextInt(7) * 5), 1)));
            }
            checkAll(testing, QuiverTypes.FLOAT64, QuiverTypes.decimal(5, 1), doubles, ComparisonExprTest::numeric);
        }
    }

    @Test
    void stringsAndDates() {
        Random random = new Random(2);
        String[] words = {"", "a", "ab", "abc", "b", "B", "é", "zz", "a b", "ab\u00e9"};
        try (TestingContext testing = new TestingContext()) {
            List<List<Object>> strings = new ArrayList<>();
            for (int i = 0; i < 150; i++) {
                strings.add(row(i % 9 == 0 ? null : words[random.nextInt(words.length)], words[random.nextInt(words.length)]));
            }
            checkAll(testing, QuiverTypes.UTF8, QuiverTypes.UTF8, strings, (a, b) -> ((String) a).compareTo((String) b));
            List<List<Object>> dates = new ArrayList<>();
            for (int i = 0; i < 150; i++) {
                dates.add(row(i % 10 == 0 ? null : 9000 + random.nextInt(5), 9000 + random.nextInt(5)));
            }
            checkAll(testing, QuiverTypes.DATE32, QuiverTypes.DATE32, dates, (a, b) -> Integer.compare((Integer) a, (Integer) b));
        }
    }

    @Test
    void distinctFrom() {
        Schema schema = schema(QuiverTypes.INT64, QuiverTypes.INT64);
        List<List<Object>> rows = List.of(row(1L, 1L), row(1L, 2L), row(null, 1L), row(1L, null), row(null, null), row(0L, null));
        try (TestingContext testing = new TestingContext()) {
            assertThat(eval(testing.allocator(), new BinaryExpr(BinaryOperator.IS_NOT_DISTINCT_FROM, col(schema, 0), col(schema, 1), QuiverTypes.BOOLEAN), schema, rows))
                    .containsExactly(true, false, false, false, true, false);
            assertThat(eval(testing.allocator(), new BinaryExpr(BinaryOperator.IS_DISTINCT_FROM, col(schema, 0), col(schema, 1), QuiverTypes.BOOLEAN), schema, rows))
                    .containsExactly(false, true, true, true, false, true);
            assertThat(eval(testing.allocator(), new BinaryExpr(BinaryOperator.IS_NOT_DISTINCT_FROM, col(schema, 0), lit(null, QuiverTypes.INT64), QuiverTypes.BOOLEAN), schema, rows))
                    .containsExactly(false, false, true, false, true, false);
            assertThat(eval(testing.allocator(), new BinaryExpr(BinaryOperator.EQ, col(schema, 0), lit(null, QuiverTypes.INT64), QuiverTypes.BOOLEAN), schema, rows))
                    .containsOnlyNulls();
        }
    }

    /** As =, IN compares doubles as SQL does: -0.0 equals 0.0, NaN equals NaN (DuckDB and PostgreSQL agree). */
    @Test
    void inListOfDoublesComparesAsEquality() {
        Schema schema = schema(QuiverTypes.FLOAT64);
        List<List<Object>> rows = List.of(row(0.0), row(-0.0), row(Double.NaN), row(1.5), row((Object) null));
        try (TestingContext testing = new TestingContext()) {
            assertThat(eval(testing.allocator(), new InListExpr(col(schema, 0), List.of(13.5, 0.0), false), schema, rows))
                    .containsExactly(true, true, false, false, null);
            assertThat(eval(testing.allocator(), new InListExpr(col(schema, 0), List.of(-0.0, Double.NaN), false), schema, rows))
                    .containsExactly(true, true, true, false, null);
            assertThat(eval(testing.allocator(), new InListExpr(col(schema, 0), List.of(-0.0, 7.0), true), schema, rows))
                    .containsExactly(false, false, true, true, null);
        }
    }
}
