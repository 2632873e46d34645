package dev.quiver.engine.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.batch.Batches;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.expr.BinaryExpr;
import dev.quiver.engine.expr.BinaryOperator;
import dev.quiver.engine.expr.ColumnExpr;
import dev.quiver.engine.expr.InListExpr;
import dev.quiver.engine.expr.LiteralExpr;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.testing.TestingContext;
import dev.quiver.engine.types.QuiverTypes;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/**
 * The filter's conjunct-by-conjunct evaluation on selection vectors ({@link FilterConjuncts})
 * against the general path, the predicate's own kernels over the whole batch: random batches of
 * every column kind the direct tests read and some they do not (with NULLs, extremes, lengths that
 * end mid-word), random conjunctions of comparisons with constants of the column's scale and of
 * other scales, literals on either side, IN lists (with NULLs, and NOT IN), ORs and arithmetic; both must keep the same rows.
 */
class FilterConjunctsTest {
    private static final List<BinaryOperator> OPS = List.of(BinaryOperator.EQ, BinaryOperator.NOT_EQ, BinaryOperator.LT,
            BinaryOperator.LT_EQ, BinaryOperator.GT, BinaryOperator.GT_EQ);
    private static final List<ArrowType> TYPES = List.of(QuiverTypes.INT32, QuiverTypes.DATE32, QuiverTypes.INT64, QuiverTypes.TIMESTAMP,
            QuiverTypes.decimal(15, 2), QuiverTypes.decimal(18, 0), QuiverTypes.decimal(38, 2), QuiverTypes.UTF8, QuiverTypes.FLOAT64);
    private static final Schema SCHEMA = schema();

    @Test
    void selectsTheRowsThePredicateKeeps() {
        Random random = new Random(20261204);
        try (TestingContext testing = new TestingContext()) {
            int predicates = 0;
            for (int rowCount : new int[] {1, 63, 64, 65, 200, 1000}) {
                try (VectorSchemaRoot batch = Batches.fromRows(SCHEMA, rows(random, rowCount), testing.allocator())) {
                    for (int p = 0; p < 150; p++) {
                        PhysicalExpr predicate = conjunction(random);
                        assertSameRows(predicate, batch, testing);
                        predicates++;
                    }
                }
            }
            assertThat(predicates).isEqualTo(900);
        }
    }

    @Test
    void mergesRangesOverOneColumnAndPutsDirectTestsFirst() {
        ColumnExpr date = column(1);
        PhysicalExpr predicate = and(and(compare(BinaryOperator.GT_EQ, date, new LiteralExpr(8766, QuiverTypes.DATE32)),
                divisionAboveOne(column(0))), compare(BinaryOperator.LT, date, new LiteralExpr(9131, QuiverTypes.DATE32)));
        assertThat(FilterConjuncts.of(predicate).size()).isEqualTo(2);
        List<List<Object>> rows = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            rows.add(row(1 + i % 150, i % 7 == 0 ? null : 8700 + i));
        }
        try (TestingContext testing = new TestingContext();
                VectorSchemaRoot batch = Batches.fromRows(SCHEMA, rows, testing.allocator())) {
            assertThat(expected(predicate, batch, testing)).hasSizeBetween(50, 900);
            assertSameRows(predicate, batch, testing);
        }
    }

    @Test
    void aConjunctThatCouldFailRunsOnlyOnTheRowsStillSelected() {
        // x <> 0 AND 100 / x > 1: the division never sees the zeros the first conjunct removed
        List<List<Object>> rows = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            rows.add(row(i % 3 == 0 ? 0 : i, i));
        }
        ColumnExpr x = column(0);
        PhysicalExpr guarded = and(compare(BinaryOperator.NOT_EQ, x, new LiteralExpr(0, QuiverTypes.INT32)), divisionAboveOne(x));
        PhysicalExpr unguarded = divisionAboveOne(x);
        try (TestingContext testing = new TestingContext();
                VectorSchemaRoot batch = Batches.fromRows(SCHEMA, rows, testing.allocator())) {
            int[] positions = new int[batch.getRowCount()];
            int count = FilterConjuncts.of(guarded).select(batch, positions, testing.allocator());
            assertThat(count).isEqualTo(expected(guarded, batch, testing).length).isPositive();
            assertThatThrownBy(() -> FilterConjuncts.of(unguarded).select(batch, positions, testing.allocator()))
                    .isInstanceOf(QuiverException.class).hasMessageContaining("zero");
        }
    }

    private static void assertSameRows(PhysicalExpr predicate, VectorSchemaRoot batch, TestingContext testing) {
        int[] expected = expected(predicate, batch, testing);
        long allocated = testing.allocator().getAllocatedMemory();
        int[] positions = new int[batch.getRowCount()];
        int count = FilterConjuncts.of(predicate).select(batch, positions, testing.allocator());
        assertThat(Arrays.copyOf(positions, count)).as(predicate.display()).containsExactly(expected);
        assertThat(testing.allocator().getAllocatedMemory()).as("what the conjuncts allocated is freed").isEqualTo(allocated);
    }

    /** The rows the general path keeps: where the predicate's own kernels give TRUE. */
    private static int[] expected(PhysicalExpr predicate, VectorSchemaRoot batch, TestingContext testing) {
        try (BitVector bits = (BitVector) predicate.evaluate(batch, testing.allocator())) {
            List<Integer> kept = new ArrayList<>();
            for (int i = 0; i < batch.getRowCount(); i++) {
                if (!bits.isNull(i) && bits.get(i) == 1) {
                    kept.add(i);
                }
            }
            return kept.stream().mapToInt(Integer::intValue).toArray();
        }
    }

    private static PhysicalExpr conjunction(Random random) {
        PhysicalExpr predicate = conjunct(random);
        int more = random.nextInt(5);
        for (int i = 0; i < more; i++) {
            predicate = random.nextBoolean() ? and(predicate, conjunct(random)) : and(conjunct(random), predicate);
        }
        return predicate;
    }

    private static PhysicalExpr conjunct(Random random) {
        return switch (random.nextInt(10)) {
            case 0 -> new BinaryExpr(BinaryOperator.OR, comparison(random), comparison(random), QuiverTypes.BOOLEAN);
            case 1 -> compare(OPS.get(random.nextInt(OPS.size())),
                    new BinaryExpr(BinaryOperator.PLUS, column(0), new LiteralExpr(1L, QuiverTypes.INT64), QuiverTypes.INT64),
                    new LiteralExpr((long) random.nextInt(21) - 10, QuiverTypes.INT64));
            case 2, 3 -> inList(random);
            default -> comparison(random);
        };
    }

    /** A column IN a few constants of its own type (sometimes NULL among them, sometimes NOT IN). */
    private static PhysicalExpr inList(Random random) {
        int c = random.nextInt(TYPES.size());
        ArrowType type = TYPES.get(c);
        List<Object> values = new ArrayList<>();
        int size = 1 + random.nextInt(random.nextInt(10) == 0 ? 20 : 5);
        for (int i = 0; i < size; i++) {
            values.add(random.nextInt(15) == 0 ? null : type instanceof ArrowType.Decimal d && random.nextInt(4) == 0
                    ? BigDecimal.valueOf(random.nextInt(2001) - 1000, d.getScale() + 1)
                    : value(random, type));
        }
        return new InListExpr(column(c), values, random.nextInt(5) == 0);
    }

    /** A column against a constant of a kind it compares with, the constant on either side. */
    private static PhysicalExpr comparison(Random random) {
        int c = random.nextInt(TYPES.size());
        ColumnExpr column = column(c);
        LiteralExpr literal = literal(random, TYPES.get(c));
        BinaryOperator op = TYPES.get(c) instanceof ArrowType.Utf8 && random.nextBoolean()
                ? (random.nextBoolean() ? BinaryOperator.EQ : BinaryOperator.NOT_EQ)
                : OPS.get(random.nextInt(OPS.size()));
        return random.nextInt(4) == 0 ? compare(op, literal, column) : compare(op, column, literal);
    }

    private static LiteralExpr literal(Random random, ArrowType type) {
        long v = random.nextInt(21) - 10;
        if (random.nextInt(30) == 0) {
            return new LiteralExpr(null, type);
        }
        if (type instanceof ArrowType.Decimal d) {
            return switch (random.nextInt(4)) {
                case 0 -> new LiteralExpr((int) v, QuiverTypes.INT32);
                // a finer scale than the column's: not exact at its scale, so the general kernel compares
                case 1 -> new LiteralExpr(BigDecimal.valueOf(v * 10 + random.nextInt(10), d.getScale() + 1), QuiverTypes.decimal(10, d.getScale() + 1));
                case 2 -> new LiteralExpr(BigDecimal.valueOf(v, 1), QuiverTypes.decimal(3, 1));
                default -> new LiteralExpr(BigDecimal.valueOf(v, d.getScale()), type);
            };
        }
        if (type instanceof ArrowType.Int i) {
            return i.getBitWidth() == 32 && random.nextBoolean() ? new LiteralExpr(v, QuiverTypes.INT64)
                    : i.getBitWidth() == 32 ? new LiteralExpr((int) v, type) : new LiteralExpr(v, type);
        }
        if (type instanceof ArrowType.Date) {
            return new LiteralExpr((int) v, type);
        }
        if (type instanceof ArrowType.Timestamp) {
            return new LiteralExpr(v, type);
        }
        if (type instanceof ArrowType.Utf8) {
            return new LiteralExpr(string(random), type);
        }
        return new LiteralExpr((double) v / 2, type);
    }

    private static List<List<Object>> rows(Random random, int count) {
        List<List<Object>> rows = new ArrayList<>();
        for (int r = 0; r < count; r++) {
            Object[] values = new Object[TYPES.size()];
            for (int c = 0; c < TYPES.size(); c++) {
                values[c] = random.nextInt(8) == 0 ? null : value(random, TYPES.get(c));
            }
            rows.add(Arrays.asList(values));
        }
        return rows;
    }

    /** Mostly a small domain (so that constants hit), sometimes the type's extremes. */
    private static Object value(Random random, ArrowType type) {
        boolean extreme = random.nextInt(20) == 0;
        long v = random.nextInt(21) - 10;
        if (type instanceof ArrowType.Int i && i.getBitWidth() == 32 || type instanceof ArrowType.Date) {
            return extreme ? (random.nextBoolean() ? Integer.MIN_VALUE : Integer.MAX_VALUE) : (int) v;
        }
        if (type instanceof ArrowType.Int || type instanceof ArrowType.Timestamp) {
            return extreme ? (random.nextBoolean() ? Long.MIN_VALUE : Long.MAX_VALUE) : v;
        }
        if (type instanceof ArrowType.Decimal d) {
            long unscaled = extreme ? (d.getPrecision() >= 18 ? 999_999_999_999_999_999L : 999_999_999_999_999L) : v * 50 + random.nextInt(3) - 1;
            return BigDecimal.valueOf(random.nextBoolean() ? unscaled : -unscaled, d.getScale());
        }
        if (type instanceof ArrowType.Utf8) {
            return string(random);
        }
        return (double) v / 2;
    }

    private static String string(Random random) {
        return List.of("", "a", "ab", "b", "MED BOX", "MED BAG", "Brand#23", "é", "ab\u0000").get(random.nextInt(9));
    }

    private static PhysicalExpr divisionAboveOne(ColumnExpr x) {
        PhysicalExpr quotient = new BinaryExpr(BinaryOperator.DIVIDE, new LiteralExpr(100, QuiverTypes.INT32), x, QuiverTypes.INT32);
        return compare(BinaryOperator.GT, quotient, new LiteralExpr(1, QuiverTypes.INT32));
    }

    private static PhysicalExpr compare(BinaryOperator op, PhysicalExpr left, PhysicalExpr right) {
        return new BinaryExpr(op, left, right, QuiverTypes.BOOLEAN);
    }

    private static PhysicalExpr and(PhysicalExpr left, PhysicalExpr right) {
        return new BinaryExpr(BinaryOperator.AND, left, right, QuiverTypes.BOOLEAN);
    }

    private static ColumnExpr column(int index) {
        return new ColumnExpr(index, "c" + index, TYPES.get(index), true);
    }

    private static List<Object> row(Object first, Object second) {
        Object[] values = new Object[TYPES.size()];
        values[0] = first;
        values[1] = second;
        return Arrays.asList(values);
    }

    private static Schema schema() {
        List<Field> fields = new ArrayList<>();
        for (int c = 0; c < TYPES.size(); c++) {
            fields.add(QuiverTypes.field("c" + c, TYPES.get(c), true));
        }
        return new Schema(fields);
    }
}
