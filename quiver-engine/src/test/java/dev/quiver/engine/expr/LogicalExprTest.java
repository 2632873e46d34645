package dev.quiver.engine.expr;

import static dev.quiver.engine.expr.ExprTesting.col;
import static dev.quiver.engine.expr.ExprTesting.eval;
import static dev.quiver.engine.expr.ExprTesting.lit;
import static dev.quiver.engine.expr.ExprTesting.row;
import static dev.quiver.engine.expr.ExprTesting.schema;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.engine.testing.TestingContext;
import dev.quiver.engine.types.QuiverTypes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

class LogicalExprTest {
    private static final Schema SCHEMA = schema(QuiverTypes.BOOLEAN, QuiverTypes.BOOLEAN);
    private static final Boolean[] VALUES = {true, false, null};

    private static Boolean and(Boolean a, Boolean b) {
        if (Boolean.FALSE.equals(a) || Boolean.FALSE.equals(b)) {
            return false;
        }
        return a == null || b == null ? null : true;
    }

    private static Boolean or(Boolean a, Boolean b) {
        if (Boolean.TRUE.equals(a) || Boolean.TRUE.equals(b)) {
            return true;
        }
        return a == null || b == null ? null : false;
    }

    /** All nine combinations, repeated so that the 64-row word loops see full and partial words. */
    private static List<List<Object>> truthTableRows(int repeat) {
        List<List<Object>> rows = new ArrayList<>();
        for (int r = 0; r < repeat; r++) {
            for (Boolean a : VALUES) {
                for (Boolean b : VALUES) {
                    rows.add(row(a, b));
                }
            }
        }
        return rows;
    }

    @Test
    void andOrTruthTables() {
        List<List<Object>> rows = truthTableRows(11);
        try (TestingContext testing = new TestingContext()) {
            List<Object> ands = eval(testing.allocator(), new BinaryExpr(BinaryOperator.AND, col(SCHEMA, 0), col(SCHEMA, 1), QuiverTypes.BOOLEAN), SCHEMA, rows);
            List<Object> ors = eval(testing.allocator(), new BinaryExpr(BinaryOperator.OR, col(SCHEMA, 0), col(SCHEMA, 1), QuiverTypes.BOOLEAN), SCHEMA, rows);
            for (int i = 0; i < rows.size(); i++) {
                Boolean a = (Boolean) rows.get(i).get(0);
                Boolean b = (Boolean) rows.get(i).get(1);
                assertThat(ands.get(i)).as("%s AND %s", a, b).isEqualTo(and(a, b));
                assertThat(ors.get(i)).as("%s OR %s", a, b).isEqualTo(or(a, b));
            }
        }
    }

    @Test
    void andOrWithConstants() {
        List<List<Object>> rows = truthTableRows(1);
        try (TestingContext testing = new TestingContext()) {
            for (Boolean constant : VALUES) {
                List<Object> ands = eval(testing.allocator(), new BinaryExpr(BinaryOperator.AND, col(SCHEMA, 0), lit(constant, QuiverTypes.BOOLEAN), QuiverTypes.BOOLEAN), SCHEMA, rows);
                List<Object> ors = eval(testing.allocator(), new BinaryExpr(BinaryOperator.OR, lit(constant, QuiverTypes.BOOLEAN), col(SCHEMA, 0), QuiverTypes.BOOLEAN), SCHEMA, rows);
                for (int i = 0; i < rows.size(); i++) {
                    Boolean a = (Boolean) rows.get(i).get(0);
                    assertThat(ands.get(i)).isEqualTo(and(a, constant));
                    assertThat(ors.get(i)).isEqualTo(or(constant, a));
                }
            }
        }
    }

    @Test
    void notAndIsNull() {
        List<List<Object>> rows = truthTableRows(8);
        try (TestingContext testing = new TestingContext()) {
            List<Object> nots = eval(testing.allocator(), new NotExpr(col(SCHEMA, 0)), SCHEMA, rows);
            List<Object> isNull = eval(testing.allocator(), new IsNullExpr(col(SCHEMA, 0), false), SCHEMA, rows);
            List<Object> isNotNull = eval(testing.allocator(), new IsNullExpr(col(SCHEMA, 1), true), SCHEMA, rows);
            for (int i = 0; i < rows.size(); i++) {
                Boolean a = (Boolean) rows.get(i).get(0);
                assertThat(nots.get(i)).isEqualTo(a == null ? null : !a);
                assertThat(isNull.get(i)).isEqualTo(a == null);
                assertThat(isNotNull.get(i)).isEqualTo(rows.get(i).get(1) != null);
            }
            assertThat(eval(testing.allocator(), new IsNullExpr(lit(null, QuiverTypes.INT64), false), SCHEMA, rows.subList(0, 3)))
                    .containsExactly(true, true, true);
            assertThat(eval(testing.allocator(), new NotExpr(lit(null, QuiverTypes.BOOLEAN)), SCHEMA, rows.subList(0, 2)))
                    .containsExactly(null, null);
        }
    }

    @Test
    void rightSideThatCouldFailRunsOnlyWhereNeeded() {
        Schema schema = schema(QuiverTypes.INT64, QuiverTypes.INT64);
        List<List<Object>> rows = List.of(row(0L, 5L), row(2L, 5L), row(null, 5L), row(5L, 10L), row(0L, null));
        ColumnExpr x = col(schema, 0);
        ColumnExpr y = col(schema, 1);
        BinaryExpr nonZero = new BinaryExpr(BinaryOperator.NOT_EQ, x, lit(0L, QuiverTypes.INT64), QuiverTypes.BOOLEAN);
        BinaryExpr isZero = new BinaryExpr(BinaryOperator.EQ, x, lit(0L, QuiverTypes.INT64), QuiverTypes.BOOLEAN);
        BinaryExpr ratioAboveOne = new BinaryExpr(BinaryOperator.GT, new BinaryExpr(BinaryOperator.DIVIDE, y, x, QuiverTypes.INT64),
                lit(1L, QuiverTypes.INT64), QuiverTypes.BOOLEAN);
        try (TestingContext testing = new TestingContext()) {
            // x <> 0 AND y / x > 1: 5/2 = 2 > 1; NULL x gives NULL AND NULL; 10/5 = 2 > 1
            assertThat(eval(testing.allocator(), new BinaryExpr(BinaryOperator.AND, nonZero, ratioAboveOne, QuiverTypes.BOOLEAN), schema, rows))
                    .containsExactly(false, true, null, true, false);
            assertThat(eval(testing.allocator(), new BinaryExpr(BinaryOperator.OR, isZero, ratioAboveOne, QuiverTypes.BOOLEAN), schema, rows))
                    .containsExactly(true, true, null, true, true);
            // the left side decides every row: the right side is not evaluated at all
            List<List<Object>> zeros = List.of(row(0L, 1L), row(0L, 2L), row(0L, null));
            assertThat(eval(testing.allocator(), new BinaryExpr(BinaryOperator.AND, nonZero, ratioAboveOne, QuiverTypes.BOOLEAN), schema, zeros))
                    .containsExactly(false, false, false);
            assertThat(eval(testing.allocator(), new BinaryExpr(BinaryOperator.OR, isZero, ratioAboveOne, QuiverTypes.BOOLEAN), schema, zeros))
                    .containsExactly(true, true, true);
        }
    }

    @Test
    void emptyBatch() {
        try (TestingContext testing = new TestingContext()) {
            assertThat(eval(testing.allocator(), new BinaryExpr(BinaryOperator.AND, col(SCHEMA, 0), col(SCHEMA, 1), QuiverTypes.BOOLEAN), SCHEMA, List.of()))
                    .isEmpty();
            assertThat(eval(testing.allocator(), new IsNullExpr(col(SCHEMA, 0), false), SCHEMA, Arrays.asList())).isEmpty();
        }
    }
}
