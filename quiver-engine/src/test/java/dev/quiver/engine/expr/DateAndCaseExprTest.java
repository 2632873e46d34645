package dev.quiver.engine.expr;

import static dev.quiver.engine.expr.ExprTesting.col;
import static dev.quiver.engine.expr.ExprTesting.eval;
import static dev.quiver.engine.expr.ExprTesting.evalColumn;
import static dev.quiver.engine.expr.ExprTesting.lit;
import static dev.quiver.engine.expr.ExprTesting.row;
import static dev.quiver.engine.expr.ExprTesting.schema;
import static dev.quiver.engine.expr.StringExprTest.fn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.expr.kernel.DateKernels;
import dev.quiver.engine.testing.TestingContext;
import dev.quiver.engine.types.QuiverTypes;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

class DateAndCaseExprTest {
    private static int day(String iso) {
        return (int) LocalDate.parse(iso).toEpochDay();
    }

    @Test
    void civilAlgorithmsMatchLocalDate() {
        // every day from 1599 to 2401 covers century and 400-year leap rules and negative day numbers
        for (int days = day("1599-01-01"); days <= day("2401-12-31"); days++) {
            LocalDate date = LocalDate.ofEpochDay(days);
            assertThat(DateKernels.year(days)).isEqualTo(date.getYear());
            assertThat(DateKernels.month(days)).isEqualTo(date.getMonthValue());
            assertThat(DateKernels.dayOfMonth(days)).isEqualTo(date.getDayOfMonth());
            assertThat(DateKernels.daysFromCivil(date.getYear(), date.getMonthValue(), date.getDayOfMonth())).isEqualTo(days);
        }
        for (int days = day("1896-01-31"); days <= day("2104-12-31"); days += 7) {
            for (int months : new int[] {-25, -12, -1, 1, 3, 12, 13, 48}) {
                assertThat(DateKernels.addMonths(days, months)).isEqualTo((int) LocalDate.ofEpochDay(days).plusMonths(months).toEpochDay());
            }
        }
    }

    @Test
    void extractAroundLeapYears() {
        List<Object> dates = Arrays.asList(day("2000-02-29"), day("2000-03-01"), day("1900-02-28"), day("1900-03-01"), day("1996-12-31"),
                day("1969-12-31"), null);
        try (TestingContext testing = new TestingContext()) {
            assertThat(evalColumn(testing.allocator(), QuiverTypes.DATE32, dates, c -> fn(ExprTesting.function("year"), QuiverTypes.INT64, c)))
                    .containsExactly(2000L, 2000L, 1900L, 1900L, 1996L, 1969L, null);
            assertThat(evalColumn(testing.allocator(), QuiverTypes.DATE32, dates, c -> fn(ExprTesting.function("month"), QuiverTypes.INT64, c)))
                    .containsExactly(2L, 3L, 2L, 3L, 12L, 12L, null);
            assertThat(evalColumn(testing.allocator(), QuiverTypes.DATE32, dates, c -> fn(ExprTesting.function("day"), QuiverTypes.INT64, c)))
                    .containsExactly(29L, 1L, 28L, 1L, 31L, 31L, null);
        }
    }

    @Test
    void dateArithmetic() {
        List<Object> dates = Arrays.asList(day("2000-01-31"), day("1999-01-31"), day("1998-12-01"), null);
        try (TestingContext testing = new TestingContext()) {
            assertThat(evalColumn(testing.allocator(), QuiverTypes.DATE32, dates,
                    c -> fn(ExprTesting.function("date_add_months"), QuiverTypes.DATE32, c, lit(1, QuiverTypes.INT32))))
                    .containsExactly(day("2000-02-29"), day("1999-02-28"), day("1999-01-01"), null);
            assertThat(evalColumn(testing.allocator(), QuiverTypes.DATE32, dates,
                    c -> fn(ExprTesting.function("date_add_months"), QuiverTypes.DATE32, c, lit(-12, QuiverTypes.INT32))))
                    .containsExactly(day("1999-01-31"), day("1998-01-31"), day("1997-12-01"), null);
            assertThat(evalColumn(testing.allocator(), QuiverTypes.DATE32, dates,
                    c -> fn(ExprTesting.function("date_add_days"), QuiverTypes.DATE32, c, lit(-90L, QuiverTypes.INT64))))
                    .containsExactly(day("1999-11-02"), day("1998-11-02"), day("1998-09-02"), null);
        }
    }

    @Test
    void caseWithoutElseAndGuardedDivision() {
        Schema schema = schema(QuiverTypes.INT64, QuiverTypes.INT64);
        List<List<Object>> rows = List.of(row(10L, 2L), row(5L, 0L), row(null, 1L), row(-9L, 3L), row(7L, null));
        try (TestingContext testing = new TestingContext()) {
            PhysicalExpr divisorIsZero = new BinaryExpr(BinaryOperator.EQ, col(schema, 1), lit(0L, QuiverTypes.INT64), QuiverTypes.BOOLEAN);
            PhysicalExpr quotient = new BinaryExpr(BinaryOperator.DIVIDE, col(schema, 0), col(schema, 1), QuiverTypes.INT64);
            CaseExpr guarded = new CaseExpr(List.of(new CaseExpr.WhenThen(divisorIsZero, lit(-1L, QuiverTypes.INT64))), Optional.of(quotient), QuiverTypes.INT64);
            assertThat(eval(testing.allocator(), guarded, schema, rows)).containsExactly(5L, -1L, null, -3L, null);
            // a later condition that divides runs only on rows no earlier branch took
            PhysicalExpr ratioIsFive = new BinaryExpr(BinaryOperator.EQ, quotient, lit(5L, QuiverTypes.INT64), QuiverTypes.BOOLEAN);
            CaseExpr guardedCondition = new CaseExpr(List.of(new CaseExpr.WhenThen(divisorIsZero, lit("zero", QuiverTypes.UTF8)),
                    new CaseExpr.WhenThen(ratioIsFive, lit("five", QuiverTypes.UTF8))), Optional.of(lit("other", QuiverTypes.UTF8)), QuiverTypes.UTF8);
            assertThat(eval(testing.allocator(), guardedCondition, schema, rows)).containsExactly("five", "zero", "other", "other", "other");
            PhysicalExpr positive = new BinaryExpr(BinaryOperator.GT, col(schema, 0), lit(0L, QuiverTypes.INT64), QuiverTypes.BOOLEAN);
            CaseExpr noElse = new CaseExpr(List.of(new CaseExpr.WhenThen(positive, lit("pos", QuiverTypes.UTF8))), Optional.empty(), QuiverTypes.UTF8);
            assertThat(eval(testing.allocator(), noElse, schema, rows)).containsExactly("pos", "pos", null, null, "pos");
            // first matching branch wins; a NULL condition is not taken
            PhysicalExpr big = new BinaryExpr(BinaryOperator.GT, col(schema, 0), lit(6L, QuiverTypes.INT64), QuiverTypes.BOOLEAN);
            CaseExpr twoBranches = new CaseExpr(List.of(new CaseExpr.WhenThen(big, lit(new BigDecimal("2.50"), QuiverTypes.decimal(5, 2))),
                    new CaseExpr.WhenThen(positive, col(schema, 1))), Optional.of(lit(new BigDecimal("0.00"), QuiverTypes.decimal(5, 2))), QuiverTypes.decimal(5, 2));
            assertThat(eval(testing.allocator(), twoBranches, schema, rows)).containsExactly(new BigDecimal("2.50"), new BigDecimal("0.00"),
                    new BigDecimal("0.00"), new BigDecimal("0.00"), new BigDecimal("2.50"));
        }
    }

    /** A function call in a branch (mod, divide) runs only on the rows that take the branch, as an operator does. */
    @Test
    void caseGuardsAFunctionThatFailsOnOtherRows() {
        Schema schema = schema(QuiverTypes.INT64, QuiverTypes.INT64);
        List<List<Object>> rows = List.of(row(10L, 3L), row(5L, 0L), row(-7L, 2L));
        PhysicalExpr divisorIsZero = new BinaryExpr(BinaryOperator.EQ, col(schema, 1), lit(0L, QuiverTypes.INT64), QuiverTypes.BOOLEAN);
        try (TestingContext testing = new TestingContext()) {
            for (String name : List.of("mod", "divide")) {
                PhysicalExpr call = fn(ExprTesting.function(name), QuiverTypes.INT64, col(schema, 0), col(schema, 1));
                CaseExpr guarded = new CaseExpr(List.of(new CaseExpr.WhenThen(divisorIsZero, lit(-1L, QuiverTypes.INT64))), Optional.of(call),
                        QuiverTypes.INT64);
                assertThat(eval(testing.allocator(), guarded, schema, rows)).as(name)
                        .containsExactly(name.equals("mod") ? 1L : 3L, -1L, name.equals("mod") ? -1L : -3L);
            }
        }
    }

    /** COALESCE runs a later argument that could fail only on the rows still NULL, as DuckDB and PostgreSQL do. */
    @Test
    void coalesceEvaluatesALaterArgumentOnlyWhereItIsNeeded() {
        Schema schema = schema(QuiverTypes.INT32, QuiverTypes.INT64);
        PhysicalExpr narrowed = new CastExpr(col(schema, 1), QuiverTypes.INT32);
        PhysicalExpr coalesce = fn(ExprTesting.function("coalesce"), QuiverTypes.INT32, col(schema, 0), narrowed, lit(-1, QuiverTypes.INT32));
        try (TestingContext testing = new TestingContext()) {
            List<List<Object>> rows = List.of(row(1, Long.MAX_VALUE), row(null, 7L), row(3, Long.MIN_VALUE), row(null, null));
            assertThat(eval(testing.allocator(), coalesce, schema, rows)).containsExactly(1, 7, 3, -1);
            List<List<Object>> needed = List.of(row(1, 2L), row(null, Long.MAX_VALUE));
            assertThatThrownBy(() -> eval(testing.allocator(), coalesce, schema, needed))
                    .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.NUMERIC_VALUE_OUT_OF_RANGE));
        }
    }

    @Test
    void absRoundCoalesce() {
        try (TestingContext testing = new TestingContext()) {
            List<Object> decimals = Arrays.asList(new BigDecimal("-1.25"), new BigDecimal("3.35"), null, new BigDecimal("-0.05"));
            assertThat(evalColumn(testing.allocator(), QuiverTypes.decimal(10, 2), decimals, c -> fn(ExprTesting.function("abs"), QuiverTypes.decimal(10, 2), c)))
                    .containsExactly(new BigDecimal("1.25"), new BigDecimal("3.35"), null, new BigDecimal("0.05"));
            assertThat(evalColumn(testing.allocator(), QuiverTypes.decimal(10, 2), decimals,
                    c -> fn(ExprTesting.function("round"), QuiverTypes.decimal(10, 1), c, lit(1, QuiverTypes.INT32))))
                    .containsExactly(new BigDecimal("-1.3"), new BigDecimal("3.4"), null, new BigDecimal("-0.1"));
            assertThat(evalColumn(testing.allocator(), QuiverTypes.decimal(10, 2), decimals,
                    c -> fn(ExprTesting.function("round"), QuiverTypes.decimal(10, 2), c, lit(0, QuiverTypes.INT32))))
                    .containsExactly(new BigDecimal("-1.00"), new BigDecimal("3.00"), null, new BigDecimal("0.00"));
            assertThat(evalColumn(testing.allocator(), QuiverTypes.INT64, Arrays.asList(-3L, 4L, null), c -> fn(ExprTesting.function("abs"), QuiverTypes.INT64, c)))
                    .containsExactly(3L, 4L, null);
            assertThat(evalColumn(testing.allocator(), QuiverTypes.FLOAT64, Arrays.asList(2.345, -2.5), c -> fn(ExprTesting.function("round"), QuiverTypes.FLOAT64, c,
                    lit(2, QuiverTypes.INT32)))).containsExactly(2.35, -2.5);
            List<Object> ints = new ArrayList<>(Arrays.asList(1L, null, 3L));
            assertThat(evalColumn(testing.allocator(), QuiverTypes.INT64, ints, c -> fn(ExprTesting.function("coalesce"), QuiverTypes.INT64, c, lit(0L, QuiverTypes.INT64))))
                    .containsExactly(1L, 0L, 3L);
        }
    }
}
