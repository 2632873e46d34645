package dev.quiver.engine.expr;

import static dev.quiver.engine.expr.ExprTesting.col;
import static dev.quiver.engine.expr.ExprTesting.eval;
import static dev.quiver.engine.expr.ExprTesting.lit;
import static dev.quiver.engine.expr.ExprTesting.row;
import static dev.quiver.engine.expr.ExprTesting.schema;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.testing.TestingContext;
import dev.quiver.engine.types.QuiverTypes;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

class ArithmeticExprTest {
    private static BinaryExpr binary(BinaryOperator op, PhysicalExpr left, PhysicalExpr right, ArrowType type) {
        return new BinaryExpr(op, left, right, type);
    }

    @Test
    void integerArithmeticWithNulls() {
        Schema schema = schema(QuiverTypes.INT32, QuiverTypes.INT64);
        List<List<Object>> rows = List.of(row(7, 2L), row(-7, 2L), row(null, 3L), row(5, null), row(0, -4L));
        try (TestingContext testing = new TestingContext()) {
            var a = col(schema, 0);
            var b = col(schema, 1);
            assertThat(eval(testing.allocator(), binary(BinaryOperator.PLUS, a, b, QuiverTypes.INT64), schema, rows)).containsExactly(9L, -5L, null, null, -4L);
            assertThat(eval(testing.allocator(), binary(BinaryOperator.MINUS, a, b, QuiverTypes.INT64), schema, rows)).containsExactly(5L, -9L, null, null, 4L);
            assertThat(eval(testing.allocator(), binary(BinaryOperator.MULTIPLY, a, b, QuiverTypes.INT64), schema, rows)).containsExactly(14L, -14L, null, null, 0L);
            assertThat(eval(testing.allocator(), binary(BinaryOperator.DIVIDE, a, b, QuiverTypes.INT64), schema, rows)).containsExactly(3L, -3L, null, null, 0L);
            assertThat(eval(testing.allocator(), binary(BinaryOperator.MODULO, a, b, QuiverTypes.INT64), schema, rows)).containsExactly(1L, -1L, null, null, 0L);
            assertThat(eval(testing.allocator(), binary(BinaryOperator.MULTIPLY, a, lit(3, QuiverTypes.INT32), QuiverTypes.INT32), schema, rows))
                    .containsExactly(21, -21, null, 15, 0);
            assertThat(eval(testing.allocator(), binary(BinaryOperator.PLUS, a, lit(null, QuiverTypes.INT32), QuiverTypes.INT32), schema, rows))
                    .containsOnlyNulls();
            assertThat(eval(testing.allocator(), new NegateExpr(a), schema, rows)).containsExactly(-7, 7, null, -5, 0);
        }
    }

    @Test
    void decimalColumnsWithoutNullsAndConstantsMatchBigDecimal() {
        // price * (1 - discount) * (1 + tax), as TPC-H q1 computes it: columns without NULLs and
        // integer constants take the one-pass path; a wide column whose values need more than 64
        // bits, or a result beyond its precision, must give the same answers as the general path
        Schema schema = schema(QuiverTypes.decimal(15, 2), QuiverTypes.decimal(15, 2), QuiverTypes.decimal(15, 2),
                QuiverTypes.decimal(38, 0));
        Random random = new Random(17);
        List<List<Object>> rows = new ArrayList<>();
        List<Object> expected = new ArrayList<>();
        List<Object> expectedWide = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            BigDecimal price = BigDecimal.valueOf(random.nextInt(10_000_000) - 100_000, 2);
            BigDecimal discount = BigDecimal.valueOf(random.nextInt(11), 2);
            BigDecimal tax = BigDecimal.valueOf(random.nextInt(9), 2);
            BigDecimal wide = i == 2000 ? new BigDecimal("123456789012345678901234") : BigDecimal.valueOf(random.nextInt(1000) - 500);
            rows.add(row(price, discount, tax, wide));
            expected.add(price.multiply(BigDecimal.ONE.subtract(discount)).multiply(BigDecimal.ONE.add(tax)));
            expectedWide.add(wide.add(BigDecimal.valueOf(5)).setScale(2));
        }
        try (TestingContext testing = new TestingContext()) {
            PhysicalExpr oneMinus = binary(BinaryOperator.MINUS, lit(1, QuiverTypes.INT32), col(schema, 1), QuiverTypes.decimal(16, 2));
            PhysicalExpr onePlus = binary(BinaryOperator.PLUS, col(schema, 2), lit(new BigDecimal("1.00"), QuiverTypes.decimal(3, 2)),
                    QuiverTypes.decimal(16, 2));
            PhysicalExpr discounted = binary(BinaryOperator.MULTIPLY, col(schema, 0), oneMinus, QuiverTypes.decimal(32, 4));
            PhysicalExpr charge = binary(BinaryOperator.MULTIPLY, discounted, onePlus, QuiverTypes.decimal(38, 6));
            assertThat(eval(testing.allocator(), charge, schema, rows)).containsExactlyElementsOf(expected);
            PhysicalExpr wideSum = binary(BinaryOperator.PLUS, col(schema, 3), lit(5L, QuiverTypes.INT64), QuiverTypes.decimal(38, 2));
            assertThat(eval(testing.allocator(), wideSum, schema, rows)).containsExactlyElementsOf(expectedWide);
            // 99999.99 * 10 does not fit DECIMAL(7, 2): the one-pass path hands it to the general path, which reports it
            Schema small = schema(QuiverTypes.decimal(7, 2));
            assertThatThrownBy(() -> eval(testing.allocator(), binary(BinaryOperator.MULTIPLY, col(small, 0), lit(10, QuiverTypes.INT32),
                    QuiverTypes.decimal(7, 2)), small, List.of(row(new BigDecimal("1.00")), row(new BigDecimal("99999.99")))))
                    .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.NUMERIC_VALUE_OUT_OF_RANGE));
        }
    }

    @Test
    void integerOverflowAndDivisionByZero() {
        Schema schema = schema(QuiverTypes.INT32, QuiverTypes.INT32);
        try (TestingContext testing = new TestingContext()) {
            var a = col(schema, 0);
            var b = col(schema, 1);
            assertThatThrownBy(() -> eval(testing.allocator(), binary(BinaryOperator.PLUS, a, b, QuiverTypes.INT32), schema,
                    List.of(row(Integer.MAX_VALUE, 1))))
                    .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.NUMERIC_VALUE_OUT_OF_RANGE))
                    .hasMessageContaining("c0@0 + c1@1");
            Schema longs = schema(QuiverTypes.INT64, QuiverTypes.INT64);
            assertThatThrownBy(() -> eval(testing.allocator(), binary(BinaryOperator.MULTIPLY, col(longs, 0), col(longs, 1), QuiverTypes.INT64), longs,
                    List.of(row(Long.MAX_VALUE / 2, 3L))))
                    .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.NUMERIC_VALUE_OUT_OF_RANGE));
            assertThatThrownBy(() -> eval(testing.allocator(), binary(BinaryOperator.DIVIDE, a, b, QuiverTypes.INT32), schema, List.of(row(1, 1), row(1, 0))))
                    .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.DIVISION_BY_ZERO));
            assertThatThrownBy(() -> eval(testing.allocator(), binary(BinaryOperator.MODULO, a, lit(0, QuiverTypes.INT32), QuiverTypes.INT32), schema,
                    List.of(row(1, 1))))
                    .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.DIVISION_BY_ZERO));
            // a NULL dividend with a zero divisor is NULL, not an error
            assertThat(eval(testing.allocator(), binary(BinaryOperator.DIVIDE, a, b, QuiverTypes.INT32), schema, List.of(row(null, 0), row(6, 3))))
                    .containsExactly(null, 2);
        }
    }

    @Test
    void doubleArithmetic() {
        Schema schema = schema(QuiverTypes.FLOAT64, QuiverTypes.INT32, QuiverTypes.decimal(5, 2));
        List<List<Object>> rows = List.of(row(1.5, 2, new BigDecimal("0.25")), row(null, 1, new BigDecimal("1.00")));
        try (TestingContext testing = new TestingContext()) {
            assertThat(eval(testing.allocator(), binary(BinaryOperator.MULTIPLY, col(schema, 0), col(schema, 1), QuiverTypes.FLOAT64), schema, rows))
                    .containsExactly(3.0, null);
            assertThat(eval(testing.allocator(), binary(BinaryOperator.PLUS, col(schema, 0), col(schema, 2), QuiverTypes.FLOAT64), schema, rows))
                    .containsExactly(1.75, null);
            assertThat(eval(testing.allocator(), binary(BinaryOperator.DIVIDE, col(schema, 2), col(schema, 1), QuiverTypes.FLOAT64), schema, rows))
                    .containsExactly(0.125, 1.0);
        }
    }

    @Test
    void integerTimesDecimal() {
        Schema schema = schema(QuiverTypes.INT32, QuiverTypes.decimal(15, 2));
        List<List<Object>> rows = List.of(row(3, new BigDecimal("1.25")), row(-2, new BigDecimal("100.01")), row(null, new BigDecimal("1.00")));
        try (TestingContext testing = new TestingContext()) {
            assertThat(eval(testing.allocator(), binary(BinaryOperator.MULTIPLY, col(schema, 0), col(schema, 1), QuiverTypes.decimal(26, 2)), schema, rows))
                    .containsExactly(new BigDecimal("3.75"), new BigDecimal("-200.02"), null);
            // 1 - x with an integer literal, as in l_extendedprice * (1 - l_discount)
            assertThat(eval(testing.allocator(), binary(BinaryOperator.MINUS, lit(1, QuiverTypes.INT32), col(schema, 1), QuiverTypes.decimal(16, 2)), schema, rows))
                    .containsExactly(new BigDecimal("-0.25"), new BigDecimal("-99.01"), new BigDecimal("0.00"));
        }
    }

    /** Random decimals of mixed scales and precisions, checked against BigDecimal. */
    @Test
    void decimalArithmeticMatchesBigDecimal() {
        Random random = new Random(42);
        int[][] shapes = {{15, 2, 15, 2}, {15, 2, 4, 3}, {10, 0, 12, 6}, {18, 4, 18, 9}, {30, 10, 20, 2}, {38, 6, 25, 12}, {12, 2, 38, 18}};
        int checked = 0;
        int overflows = 0;
        try (TestingContext testing = new TestingContext()) {
            for (int[] shape : shapes) {
                ArrowType.Decimal left = QuiverTypes.decimal(shape[0], shape[1]);
                ArrowType.Decimal right = QuiverTypes.decimal(shape[2], shape[3]);
                Schema schema = schema(left, right);
                List<List<Object>> rows = new ArrayList<>();
                for (int i = 0; i < 300; i++) {
                    rows.add(row(i % 17 == 0 ? null : randomDecimal(random, left), i % 23 == 0 ? null : randomDecimal(random, right)));
                }
                for (BinaryOperator op : List.of(BinaryOperator.PLUS, BinaryOperator.MINUS, BinaryOperator.MULTIPLY, BinaryOperator.DIVIDE,
                        BinaryOperator.MODULO)) {
                    ArrowType.Decimal result = resultType(op, left, right);
                    List<List<Object>> input = rows.stream()
                            .filter(r -> !isZero(r.get(1)) || op != BinaryOperator.DIVIDE && op != BinaryOperator.MODULO).toList();
                    List<Object> expected = new ArrayList<>();
                    for (List<Object> r : input) {
                        expected.add(expected(op, (BigDecimal) r.get(0), (BigDecimal) r.get(1), result));
                    }
                    BinaryExpr expr = binary(op, col(schema, 0), col(schema, 1), result);
                    if (expected.contains("overflow")) {
                        assertThatThrownBy(() -> eval(testing.allocator(), expr, schema, input))
                                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.NUMERIC_VALUE_OUT_OF_RANGE));
                        overflows++;
                        continue;
                    }
                    List<Object> actual = eval(testing.allocator(), expr, schema, input);
                    checked++;
                    assertThat(actual).as("%s %s %s -> %s", left, op, right, result).containsExactlyElementsOf(expected);
                }
            }
        }
        assertThat(checked).isGreaterThan(25);
    }

    private static boolean isZero(Object value) {
        return value != null && ((BigDecimal) value).signum() == 0;
    }

    private static BigDecimal randomDecimal(Random random, ArrowType.Decimal type) {
        int digits = 1 + random.nextInt(type.getPrecision());
        BigInteger unscaled = new BigInteger(digits * 3, random).mod(BigInteger.TEN.pow(digits));
        if (random.nextBoolean()) {
            unscaled = unscaled.negate();
        }
        return new BigDecimal(unscaled, type.getScale());
    }

    /** Result types like Calcite's, capped at 38 digits. */
    private static ArrowType.Decimal resultType(BinaryOperator op, ArrowType.Decimal a, ArrowType.Decimal b) {
        int p1 = a.getPrecision();
        int s1 = a.getScale();
        int p2 = b.getPrecision();
        int s2 = b.getScale();
        int scale;
        int precision;
        switch (op) {
            case PLUS, MINUS -> {
                scale = Math.max(s1, s2);
                precision = Math.max(p1 - s1, p2 - s2) + scale + 1;
            }
            case MULTIPLY -> {
                scale = s1 + s2;
                precision = p1 + p2;
            }
            case DIVIDE -> {
                scale = Math.max(6, s1 + p2 + 1);
                precision = p1 - s1 + s2 + scale;
            }
            default -> {
                scale = Math.max(s1, s2);
                precision = Math.min(p1 - s1, p2 - s2) + scale;
            }
        }
        precision = Math.min(precision, 38);
        scale = Math.min(scale, precision);
        return QuiverTypes.decimal(precision, scale);
    }

    private static Object expected(BinaryOperator op, BigDecimal a, BigDecimal b, ArrowType.Decimal type) {
        if (a == null || b == null) {
            return null;
        }
        BigDecimal exact = switch (op) {
            case PLUS -> a.add(b);
            case MINUS -> a.subtract(b);
            case MULTIPLY -> a.multiply(b);
            case DIVIDE -> a.divide(b, type.getScale() + 5, RoundingMode.DOWN).add(BigDecimal.ZERO);
            default -> a.remainder(b);
        };
        if (op == BinaryOperator.DIVIDE) {
            exact = a.divide(b, type.getScale(), RoundingMode.HALF_UP);
        }
        BigDecimal result = exact.setScale(type.getScale(), RoundingMode.HALF_UP);
        if (result.precision() - result.scale() > type.getPrecision() - type.getScale()) {
            return "overflow";
        }
        return result;
    }

    @Test
    void decimalOverflowAndDivisionByZero() {
        ArrowType.Decimal type = QuiverTypes.decimal(5, 2);
        Schema schema = schema(type, type);
        try (TestingContext testing = new TestingContext()) {
            assertThatThrownBy(() -> eval(testing.allocator(), binary(BinaryOperator.PLUS, col(schema, 0), col(schema, 1), type), schema,
                    List.of(row(new BigDecimal("999.99"), new BigDecimal("0.01")))))
                    .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.NUMERIC_VALUE_OUT_OF_RANGE))
                    .hasMessageContaining("DECIMAL(5,2)");
            assertThatThrownBy(() -> eval(testing.allocator(), binary(BinaryOperator.DIVIDE, col(schema, 0), col(schema, 1), type), schema,
                    List.of(row(new BigDecimal("1.00"), new BigDecimal("0.00")))))
                    .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.DIVISION_BY_ZERO));
            // 128-bit: 10^37 * 10 does not fit DECIMAL(38,0)
            ArrowType.Decimal wide = QuiverTypes.decimal(38, 0);
            Schema wideSchema = schema(wide);
            assertThatThrownBy(() -> eval(testing.allocator(), binary(BinaryOperator.MULTIPLY, col(wideSchema, 0), lit(10, QuiverTypes.INT32), wide),
                    wideSchema, List.of(row(new BigDecimal(BigInteger.TEN.pow(37))))))
                    .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.NUMERIC_VALUE_OUT_OF_RANGE));
            assertThat(eval(testing.allocator(), binary(BinaryOperator.MULTIPLY, col(wideSchema, 0), lit(9, QuiverTypes.INT32), wide),
                    wideSchema, List.of(row(new BigDecimal(BigInteger.TEN.pow(37))))))
                    .containsExactly(new BigDecimal(BigInteger.TEN.pow(37).multiply(BigInteger.valueOf(9))));
        }
    }

    @Test
    void decimalDivisionRoundsHalfUp() {
        ArrowType.Decimal type = QuiverTypes.decimal(15, 2);
        Schema schema = schema(type, QuiverTypes.INT64);
        try (TestingContext testing = new TestingContext()) {
            List<Object> quotients = eval(testing.allocator(), binary(BinaryOperator.DIVIDE, col(schema, 0), col(schema, 1), QuiverTypes.decimal(20, 3)), schema,
                    List.of(row(new BigDecimal("1.00"), 3L), row(new BigDecimal("2.00"), 3L), row(new BigDecimal("-2.00"), 3L), row(new BigDecimal("0.01"), 8L)));
            assertThat(quotients).containsExactly(new BigDecimal("0.333"), new BigDecimal("0.667"), new BigDecimal("-0.667"), new BigDecimal("0.001"));
        }
    }
}
