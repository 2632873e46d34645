package dev.quiver.engine.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.expr.ColumnExpr;
import dev.quiver.engine.expr.LiteralExpr;
import dev.quiver.engine.source.memory.MemoryScanExec;
import dev.quiver.engine.testing.TestingContext;
import dev.quiver.engine.types.QuiverTypes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

class FilterExecTest {
    private static final Schema SCHEMA = new Schema(List.of(
            QuiverTypes.field("id", QuiverTypes.INT64, false),
            QuiverTypes.field("name", QuiverTypes.UTF8, true),
            QuiverTypes.field("keep", QuiverTypes.BOOLEAN, true)));

    private static final ColumnExpr KEEP = new ColumnExpr(2, "keep", QuiverTypes.BOOLEAN, true);

    @Test
    void keepsOnlyTrueRows() {
        List<List<Object>> rows = List.of(
                Arrays.asList(1L, "a", true),
                Arrays.asList(2L, null, false),
                Arrays.asList(3L, "c", null),
                Arrays.asList(4L, null, true),
                Arrays.asList(5L, "e", true));
        try (TestingContext testing = new TestingContext()) {
            FilterExec filter = new FilterExec(KEEP, new MemoryScanExec(SCHEMA, List.of(rows)));
            assertThat(testing.rows(filter)).containsExactly(
                    Arrays.asList(1L, "a", true),
                    Arrays.asList(4L, null, true),
                    Arrays.asList(5L, "e", true));
            assertThat(filter.metrics().outputRows()).isEqualTo(3);
            assertThat(filter.metrics().elapsedComputeNanos()).isPositive();
        }
    }

    @Test
    void passesWholeBatchesAndSkipsEmptyOnes() {
        List<List<Object>> rows = new ArrayList<>();
        for (long i = 0; i < 1000; i++) {
            // batches of 100: batch 0 all pass, batch 1 none, later every third row
            boolean keep = i < 100 || (i >= 200 && i % 3 == 0);
            rows.add(Arrays.asList(i, "row" + i, keep));
        }
        List<List<Object>> expected = rows.stream().filter(r -> (Boolean) r.get(2)).toList();
        try (TestingContext base = new TestingContext(); TestingContext testing = base.withBatchSize(100)) {
            FilterExec filter = new FilterExec(KEEP, new MemoryScanExec(SCHEMA, List.of(rows)));
            assertThat(testing.rows(filter)).containsExactlyElementsOf(expected);
            assertThat(filter.metrics().partition(0).outputBatches()).isEqualTo(9);
        }
    }

    @Test
    void literalPredicates() {
        List<List<Object>> rows = List.of(Arrays.asList(1L, "a", true), Arrays.asList(2L, "b", false));
        try (TestingContext testing = new TestingContext()) {
            MemoryScanExec scan = new MemoryScanExec(SCHEMA, List.of(rows));
            assertThat(testing.rows(new FilterExec(new LiteralExpr(true, QuiverTypes.BOOLEAN), scan))).hasSize(2);
            assertThat(testing.rows(new FilterExec(new LiteralExpr(false, QuiverTypes.BOOLEAN), scan))).isEmpty();
            assertThat(testing.rows(new FilterExec(new LiteralExpr(null, QuiverTypes.BOOLEAN), scan))).isEmpty();
        }
    }

    @Test
    void rejectsNonBooleanPredicate() {
        assertThatThrownBy(() -> new FilterExec(new ColumnExpr(0, "id", QuiverTypes.INT64, false), new MemoryScanExec(SCHEMA, List.of(List.of()))))
                .isInstanceOf(QuiverException.class)
                .hasMessageContaining("BOOLEAN");
    }
}
