package dev.quiver.engine.operator;

import static org.assertj.core.api.Assertions.assertThat;

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
