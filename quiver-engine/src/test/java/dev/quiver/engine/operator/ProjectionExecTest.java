package dev.quiver.engine.operator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.engine.expr.BinaryExpr;
import dev.quiver.engine.expr.BinaryOperator;
import dev.quiver.engine.expr.ColumnExpr;
import dev.quiver.engine.expr.LiteralExpr;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.source.memory.MemoryScanExec;
import dev.quiver.engine.testing.TestingContext;
import dev.quiver.engine.types.QuiverTypes;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

class ProjectionExecTest {
    private static final Schema SCHEMA = new Schema(List.of(
            QuiverTypes.field("id", QuiverTypes.INT64, false),
            QuiverTypes.field("name", QuiverTypes.UTF8, true)));

    @Test
    void reordersRenamesAndAddsConstants() {
        List<List<Object>> rows = List.of(Arrays.asList(1L, "a"), Arrays.asList(2L, null), Arrays.asList(3L, "c"));
        List<PhysicalExpr> exprs = List.of(
                new ColumnExpr(1, "name", QuiverTypes.UTF8, true),
                new ColumnExpr(0, "id", QuiverTypes.INT64, false),
                new LiteralExpr(new BigDecimal("1.50"), QuiverTypes.decimal(5, 2)),
                new LiteralExpr("x", QuiverTypes.UTF8),
                new LiteralExpr(null, QuiverTypes.INT32),
                new LiteralExpr(19000, QuiverTypes.DATE32));
        try (TestingContext testing = new TestingContext()) {
            ProjectionExec projection = new ProjectionExec(exprs, List.of("n", "i", "d", "s", "z", "day"), new MemoryScanExec(SCHEMA, List.of(rows)));
            assertThat(projection.schema().getFields()).extracting(Field::getName).containsExactly("n", "i", "d", "s", "z", "day");
            assertThat(testing.rows(projection)).containsExactly(
                    Arrays.asList("a", 1L, new BigDecimal("1.50"), "x", null, 19000),
                    Arrays.asList(null, 2L, new BigDecimal("1.50"), "x", null, 19000),
                    Arrays.asList("c", 3L, new BigDecimal("1.50"), "x", null, 19000));
            assertThat(projection.metrics().outputRows()).isEqualTo(3);
        }
    }

    @Test
    void filterThenComputeLikeTpchQ6() {
        Schema lineitem = new Schema(List.of(
                QuiverTypes.field("l_quantity", QuiverTypes.decimal(15, 2), false),
                QuiverTypes.field("l_extendedprice", QuiverTypes.decimal(15, 2), false),
                QuiverTypes.field("l_discount", QuiverTypes.decimal(15, 2), false),
                QuiverTypes.field("l_shipdate", QuiverTypes.DATE32, false)));
        java.util.Random random = new java.util.Random(6);
        List<List<Object>> rows = new java.util.ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            rows.add(Arrays.asList(BigDecimal.valueOf(random.nextInt(5000), 2), BigDecimal.valueOf(random.nextInt(10_000_000), 2),
                    BigDecimal.valueOf(random.nextInt(11), 2), 8700 + random.nextInt(800)));
        }
        ColumnExpr quantity = new ColumnExpr(0, "l_quantity", QuiverTypes.decimal(15, 2), false);
        ColumnExpr price = new ColumnExpr(1, "l_extendedprice", QuiverTypes.decimal(15, 2), false);
        ColumnExpr discount = new ColumnExpr(2, "l_discount", QuiverTypes.decimal(15, 2), false);
        ColumnExpr shipdate = new ColumnExpr(3, "l_shipdate", QuiverTypes.DATE32, false);
        PhysicalExpr predicate = and(and(
                new BinaryExpr(BinaryOperator.GT_EQ, shipdate, new LiteralExpr(8766, QuiverTypes.DATE32), QuiverTypes.BOOLEAN),
                new BinaryExpr(BinaryOperator.LT, shipdate, new LiteralExpr(9131, QuiverTypes.DATE32), QuiverTypes.BOOLEAN)),
                and(new BinaryExpr(BinaryOperator.GT_EQ, discount, new LiteralExpr(new BigDecimal("0.05"), QuiverTypes.decimal(3, 2)), QuiverTypes.BOOLEAN),
                        and(new BinaryExpr(BinaryOperator.LT_EQ, discount, new LiteralExpr(new BigDecimal("0.07"), QuiverTypes.decimal(3, 2)), QuiverTypes.BOOLEAN),
                                new BinaryExpr(BinaryOperator.LT, quantity, new LiteralExpr(24, QuiverTypes.INT32), QuiverTypes.BOOLEAN))));
        PhysicalExpr revenue = new BinaryExpr(BinaryOperator.MULTIPLY, price, discount, QuiverTypes.decimal(30, 4));
        List<List<Object>> expected = rows.stream()
                .filter(r -> (Integer) r.get(3) >= 8766 && (Integer) r.get(3) < 9131)
                .filter(r -> ((BigDecimal) r.get(2)).compareTo(new BigDecimal("0.05")) >= 0 && ((BigDecimal) r.get(2)).compareTo(new BigDecimal("0.07")) <= 0)
                .filter(r -> ((BigDecimal) r.get(0)).compareTo(BigDecimal.valueOf(24)) < 0)
                .map(r -> (List<Object>) List.<Object>of(((BigDecimal) r.get(1)).multiply((BigDecimal) r.get(2))))
                .toList();
        try (TestingContext base = new TestingContext(); TestingContext testing = base.withBatchSize(500)) {
            ProjectionExec plan = new ProjectionExec(List.of(revenue), List.of("revenue"),
                    new FilterExec(predicate, new MemoryScanExec(lineitem, List.of(rows))));
            assertThat(expected).isNotEmpty();
            assertThat(testing.rows(plan)).containsExactlyElementsOf(expected);
        }
    }

    private static PhysicalExpr and(PhysicalExpr left, PhysicalExpr right) {
        return new BinaryExpr(BinaryOperator.AND, left, right, QuiverTypes.BOOLEAN);
    }

    @Test
    void manyBatches() {
        List<List<Object>> rows = new java.util.ArrayList<>();
        for (long i = 0; i < 250; i++) {
            rows.add(Arrays.asList(i, i % 7 == 0 ? null : "v" + i));
        }
        try (TestingContext base = new TestingContext(); TestingContext testing = base.withBatchSize(64)) {
            ProjectionExec projection = new ProjectionExec(List.of(new ColumnExpr(1, "name", QuiverTypes.UTF8, true)), List.of("name"),
                    new MemoryScanExec(SCHEMA, List.of(rows)));
            assertThat(testing.rows(projection)).containsExactlyElementsOf(rows.stream().map(r -> Arrays.asList(r.get(1))).toList());
        }
    }
}
