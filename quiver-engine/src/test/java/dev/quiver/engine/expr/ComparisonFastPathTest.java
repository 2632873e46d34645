package dev.quiver.engine.expr;

import static dev.quiver.engine.expr.ExprTesting.col;
import static dev.quiver.engine.expr.ExprTesting.eval;
import static dev.quiver.engine.expr.ExprTesting.lit;
import static dev.quiver.engine.expr.ExprTesting.schema;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.engine.testing.TestingContext;
import dev.quiver.engine.types.QuiverTypes;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.LongFunction;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The comparison kernels read INTEGER, DATE, BIGINT, TIMESTAMP and DECIMAL(p <= 18) columns
 * straight off their buffers, against a constant or a column of the same kind and scale. Each
 * case here is evaluated twice on the same random rows (NULLs, duplicates, the type's extremes,
 * lengths that end mid-word): once on that fast path, once with the column widened to
 * DECIMAL(38, s), which only the general path reads; both must agree on every row.
 */
class ComparisonFastPathTest {
    private static final List<BinaryOperator> OPS = List.of(BinaryOperator.EQ, BinaryOperator.NOT_EQ, BinaryOperator.LT, BinaryOperator.LT_EQ,
            BinaryOperator.GT, BinaryOperator.GT_EQ);

    /** A column type the fast path reads, how its unscaled values are drawn, and their Java values. */
    private record Kind(ArrowType type, int scale, long min, long max, LongFunction<Object> value) {
        ArrowType wide() {
            return QuiverTypes.decimal(38, scale);
        }

        Object wideValue(long unscaled) {
            return new BigDecimal(BigInteger.valueOf(unscaled), scale);
        }

        /** Mostly a small domain (so that equal values and constants hit), sometimes the extremes. */
        long draw(Random random) {
            return switch (random.nextInt(12)) {
                case 0 -> min;
                case 1 -> max;
                case 2 -> min + 1;
                case 3 -> max - 1;
                default -> random.nextInt(41) - 20;
            };
        }
    }

    private static Kind kind(String name) {
        return switch (name) {
            case "INTEGER" -> new Kind(QuiverTypes.INT32, 0, Integer.MIN_VALUE, Integer.MAX_VALUE, v -> (int) v);
            case "DATE" -> new Kind(QuiverTypes.DATE32, 0, -1_000_000, 1_000_000, v -> (int) v);
            case "BIGINT" -> new Kind(QuiverTypes.INT64, 0, Long.MIN_VALUE, Long.MAX_VALUE, v -> v);
            case "TIMESTAMP" -> new Kind(QuiverTypes.TIMESTAMP, 0, Long.MIN_VALUE, Long.MAX_VALUE, v -> v);
            case "DECIMAL(15,2)" -> new Kind(QuiverTypes.decimal(15, 2), 2, -999_999_999_999_999L, 999_999_999_999_999L,
                    v -> BigDecimal.valueOf(v, 2));
            case "DECIMAL(18,0)" -> new Kind(QuiverTypes.decimal(18, 0), 0, -999_999_999_999_999_999L, 999_999_999_999_999_999L,
                    BigDecimal::valueOf);
            default -> throw new IllegalArgumentException(name);
        };
    }

    @ParameterizedTest
    @ValueSource(strings = {"INTEGER", "DATE", "BIGINT", "TIMESTAMP", "DECIMAL(15,2)", "DECIMAL(18,0)"})
    void fastPathsAgreeWithTheGeneralPath(String name) {
        Kind kind = kind(name);
        Random random = new Random(name.hashCode());
        try (TestingContext testing = new TestingContext()) {
            for (int rowCount : new int[] {1, 63, 64, 65, 1000}) {
                long[] x = new long[rowCount];
                long[] y = new long[rowCount];
                boolean[] xNull = new boolean[rowCount];
                boolean[] yNull = new boolean[rowCount];
                for (int i = 0; i < rowCount; i++) {
                    x[i] = kind.draw(random);
                    y[i] = random.nextInt(4) == 0 ? x[i] : kind.draw(random);
                    xNull[i] = random.nextInt(10) == 0;
                    yNull[i] = random.nextInt(10) == 0;
                }
                // columns: x and y as the kind, x widened; the general path reads only the widened one
                Schema schema = schema(kind.type(), kind.type(), kind.wide());
                List<List<Object>> rows = new ArrayList<>();
                for (int i = 0; i < rowCount; i++) {
                    rows.add(Arrays.asList(xNull[i] ? null : kind.value().apply(x[i]), yNull[i] ? null : kind.value().apply(y[i]),
                            xNull[i] ? null : kind.wideValue(x[i])));
                }
                List<Long> constants = new ArrayList<>(List.of(kind.min(), kind.max(), 0L, x[0], x[rowCount / 2]));
                constants.add(kind.draw(random));
                for (BinaryOperator op : OPS) {
                    for (long c : constants) {
                        LiteralExpr constant = lit(kind.value().apply(c), kind.type());
                        assertSame(testing, schema, rows, op, col(schema, 0), constant, col(schema, 2), constant, name + " x " + op + " " + c);
                        assertSame(testing, schema, rows, op, constant, col(schema, 0), constant, col(schema, 2), name + " " + c + " " + op + " x");
                    }
                    assertSame(testing, schema, rows, op, col(schema, 0), col(schema, 1), col(schema, 2), col(schema, 1), name + " x " + op + " y");
                    assertSame(testing, schema, rows, op, col(schema, 1), col(schema, 0), col(schema, 1), col(schema, 2), name + " y " + op + " x");
                }
                if (kind.scale() > 0) {
                    // a constant of a smaller scale is scaled up to the column's: x < 24 on DECIMAL(15,2)
                    LiteralExpr integer = lit(new BigDecimal(x[0] / 100), QuiverTypes.decimal(17, 0));
                    for (BinaryOperator op : OPS) {
                        assertSame(testing, schema, rows, op, col(schema, 0), integer, col(schema, 2), integer, name + " x " + op + " integer");
                    }
                }
            }
        }
    }

    private static void assertSame(TestingContext testing, Schema schema, List<List<Object>> rows, BinaryOperator op, PhysicalExpr fastLeft,
            PhysicalExpr fastRight, PhysicalExpr generalLeft, PhysicalExpr generalRight, String description) {
        List<Object> fast = eval(testing.allocator(), new BinaryExpr(op, fastLeft, fastRight, QuiverTypes.BOOLEAN), schema, rows);
        List<Object> general = eval(testing.allocator(), new BinaryExpr(op, generalLeft, generalRight, QuiverTypes.BOOLEAN), schema, rows);
        assertThat(fast).as(description).isEqualTo(general);
    }
}
