package dev.quiver.engine.expr;

import static dev.quiver.engine.expr.ExprTesting.col;
import static dev.quiver.engine.expr.ExprTesting.eval;
import static dev.quiver.engine.expr.ExprTesting.lit;
import static dev.quiver.engine.expr.ExprTesting.schema;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.engine.testing.TestingContext;
import dev.quiver.engine.types.QuiverTypes;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/** Every kind of expression over an empty batch and over a batch of NULLs. */
class EdgeBatchExprTest {
    private static final Schema SCHEMA = schema(QuiverTypes.INT64, QuiverTypes.decimal(38, 4), QuiverTypes.UTF8, QuiverTypes.DATE32,
            QuiverTypes.BOOLEAN, QuiverTypes.FLOAT64);

    /** Expressions that are NULL whenever their inputs are. */
    private static List<PhysicalExpr> strictExprs() {
        var l = col(SCHEMA, 0);
        var d = col(SCHEMA, 1);
        var s = col(SCHEMA, 2);
        var day = col(SCHEMA, 3);
        var b = col(SCHEMA, 4);
        var f = col(SCHEMA, 5);
        return List.of(
                new BinaryExpr(BinaryOperator.DIVIDE, l, l, QuiverTypes.INT64),
                new BinaryExpr(BinaryOperator.MODULO, d, d, QuiverTypes.decimal(38, 4)),
                new BinaryExpr(BinaryOperator.DIVIDE, d, l, QuiverTypes.decimal(38, 6)),
                new BinaryExpr(BinaryOperator.MULTIPLY, f, d, QuiverTypes.FLOAT64),
                new BinaryExpr(BinaryOperator.LT, s, lit("x", QuiverTypes.UTF8), QuiverTypes.BOOLEAN),
                new BinaryExpr(BinaryOperator.EQ, d, l, QuiverTypes.BOOLEAN),
                new BinaryExpr(BinaryOperator.AND, b, b, QuiverTypes.BOOLEAN),
                new NotExpr(b),
                new NegateExpr(d),
                new CastExpr(s, QuiverTypes.DATE32),
                new CastExpr(d, QuiverTypes.INT32),
                new CastExpr(day, QuiverTypes.UTF8),
                ExprTesting.like(s, "%a_b%", Optional.empty(), false),
                new InListExpr(l, List.of(1L, 2L), true),
                new ScalarFunctionExpr(ExprTesting.function("substring"), List.of(s, lit(2, QuiverTypes.INT32), lit(1, QuiverTypes.INT32)), QuiverTypes.UTF8),
                new ScalarFunctionExpr(ExprTesting.function("upper"), List.of(s), QuiverTypes.UTF8),
                new ScalarFunctionExpr(ExprTesting.function("btrim"), List.of(s), QuiverTypes.UTF8),
                new ScalarFunctionExpr(ExprTesting.function("length"), List.of(s), QuiverTypes.INT64),
                new ScalarFunctionExpr(ExprTesting.function("||"), List.of(s, s), QuiverTypes.UTF8),
                new ScalarFunctionExpr(ExprTesting.function("year"), List.of(day), QuiverTypes.INT64),
                new ScalarFunctionExpr(ExprTesting.function("date_add_months"), List.of(day, lit(3, QuiverTypes.INT32)), QuiverTypes.DATE32),
                new ScalarFunctionExpr(ExprTesting.function("abs"), List.of(d), QuiverTypes.decimal(38, 4)),
                new ScalarFunctionExpr(ExprTesting.function("round"), List.of(d, lit(2, QuiverTypes.INT32)), QuiverTypes.decimal(38, 4)),
                new ScalarFunctionExpr(ExprTesting.function("coalesce"), List.of(l, l), QuiverTypes.INT64),
                new CaseExpr(List.of(new CaseExpr.WhenThen(b, d)), Optional.empty(), QuiverTypes.decimal(38, 4)));
    }

    @Test
    void emptyBatches() {
        try (TestingContext testing = new TestingContext()) {
            for (PhysicalExpr expr : strictExprs()) {
                assertThat(eval(testing.allocator(), expr, SCHEMA, List.of())).as(expr.display()).isEmpty();
            }
            assertThat(eval(testing.allocator(), new IsNullExpr(col(SCHEMA, 2), false), SCHEMA, List.of())).isEmpty();
            assertThat(eval(testing.allocator(), lit(new BigDecimal("1.5"), QuiverTypes.decimal(5, 1)), SCHEMA, List.of())).isEmpty();
        }
    }

    @Test
    void allNullBatches() {
        List<List<Object>> rows = new ArrayList<>();
        for (int i = 0; i < 70; i++) {
            rows.add(Arrays.asList(null, null, null, null, null, null));
        }
        try (TestingContext testing = new TestingContext()) {
            for (PhysicalExpr expr : strictExprs()) {
                assertThat(eval(testing.allocator(), expr, SCHEMA, rows)).as(expr.display()).hasSize(70).containsOnlyNulls();
            }
            assertThat(eval(testing.allocator(), new IsNullExpr(col(SCHEMA, 2), false), SCHEMA, rows)).containsOnly(true);
            assertThat(eval(testing.allocator(), new BinaryExpr(BinaryOperator.IS_NOT_DISTINCT_FROM, col(SCHEMA, 0), col(SCHEMA, 0), QuiverTypes.BOOLEAN),
                    SCHEMA, rows)).containsOnly(true);
        }
    }
}
