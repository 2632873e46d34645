package dev.quiver.engine.operator.window;

import static dev.quiver.engine.operator.window.WindowTestData.column;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.error.ResourcesExhaustedException;
import dev.quiver.engine.execution.ExecutionConfig;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.expr.ColumnExpr;
import dev.quiver.engine.expr.LiteralExpr;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.memory.MemoryPool;
import dev.quiver.engine.operator.aggregate.AggregateExpr;
import dev.quiver.engine.operator.aggregate.AggregateFunction;
import dev.quiver.engine.operator.sort.SortExec;
import dev.quiver.engine.operator.sort.SortKey;
import dev.quiver.engine.source.memory.MemoryScanExec;
import dev.quiver.engine.testing.TestingContext;
import dev.quiver.engine.types.QuiverTypes;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

class WindowExecTest {
    private static final Schema KEYED = new Schema(List.of(
            QuiverTypes.field("k", QuiverTypes.INT32, false),
            QuiverTypes.field("v", QuiverTypes.INT64, false)));

    private static WindowExpr sumOver(WindowFrame frame) {
        ColumnExpr v = new ColumnExpr(1, "v", QuiverTypes.INT64, false);
        return new WindowExpr(new WindowFunction.Aggregate(new AggregateExpr(AggregateFunction.SUM, List.of(v), false, "s", QuiverTypes.INT64)),
                frame, "s");
    }

    private static List<List<Object>> keyedRows(int rows, int partitions) {
        List<List<Object>> out = new ArrayList<>(rows);
        for (int i = 0; i < rows; i++) {
            out.add(List.of((int) ((long) i * partitions / rows), (long) i));
        }
        return out;
    }

    @Test
    void emptyInputGivesNoRows() {
        try (TestingContext tc = new TestingContext()) {
            ExecutionPlan empty = new MemoryScanExec(KEYED, List.of(List.of()));
            PhysicalExpr k = new ColumnExpr(0, "k", QuiverTypes.INT32, false);
            WindowExpr rowNumber = new WindowExpr(new WindowFunction.RowNumber(), WindowFrame.DEFAULT_WITH_ORDER, "rn");
            assertThat(tc.rows(new WindowExec(empty, List.of(k), List.of(new SortKey(k, true, false)), List.of(rowNumber, sumOver(WindowFrame.DEFAULT_WITH_ORDER)))))
                    .isEmpty();
            assertThat(tc.rows(new WindowExec(empty, List.of(), List.of(), List.of(sumOver(WindowFrame.WHOLE_PARTITION))))).isEmpty();
        }
    }

    @Test
    void severalExpressionsEachWithItsFrameMatchDuckDb() throws SQLException {
        try (WindowTestData data = new WindowTestData(700, 0.7); TestingContext tc = new TestingContext().withBatchSize(50)) {
            PhysicalExpr p = column("p");
            List<SortKey> order = List.of(new SortKey(column("o"), true, false), new SortKey(column("id"), true, false));
            ColumnExpr x = column("x");
            FrameOffset two = new FrameOffset.Count(2);
            List<WindowExpr> exprs = List.of(
                    new WindowExpr(new WindowFunction.RowNumber(), WindowFrame.DEFAULT_WITH_ORDER, "rn"),
                    new WindowExpr(new WindowFunction.Rank(WindowFunction.Rank.Kind.DENSE_RANK), WindowFrame.DEFAULT_WITH_ORDER, "dr"),
                    new WindowExpr(aggregate(AggregateFunction.SUM, x), WindowFrame.DEFAULT_WITH_ORDER, "running"),
                    new WindowExpr(aggregate(AggregateFunction.MAX, x), new WindowFrame(WindowFrame.Units.ROWS, FrameBound.preceding(two),
                            FrameBound.following(two), WindowFrame.Exclusion.CURRENT_ROW), "sliding"),
                    new WindowExpr(new WindowFunction.FrameValue(WindowFunction.FrameValue.Position.LAST, x, new LiteralExpr(1L, QuiverTypes.INT64), true),
                            WindowFrame.WHOLE_PARTITION, "last"),
                    new WindowExpr(new WindowFunction.LagLead(false, x, new LiteralExpr(1L, QuiverTypes.INT64),
                            new LiteralExpr(null, QuiverTypes.INT64), false), WindowFrame.DEFAULT_WITH_ORDER, "previous"));
            List<SortKey> sort = new ArrayList<>();
            sort.add(new SortKey(p, true, true));
            sort.addAll(order);
            ExecutionPlan plan = new WindowExec(new SortExec(new MemoryScanExec(WindowTestData.SCHEMA, List.of(data.rows())), sort,
                    OptionalLong.empty(), false), List.of(p), order, exprs);
            String w = "(PARTITION BY p ORDER BY o ASC NULLS LAST, id)";
            List<List<Object>> duck = data.query("SELECT id, row_number() OVER " + w + ", dense_rank() OVER (PARTITION BY p ORDER BY o ASC NULLS LAST, id),"
                    + " sum(x) OVER " + w + ", max(x) OVER (PARTITION BY p ORDER BY o ASC NULLS LAST, id ROWS BETWEEN 2 PRECEDING AND 2 FOLLOWING EXCLUDE CURRENT ROW),"
                    + " last_value(x IGNORE NULLS) OVER (PARTITION BY p ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING), lag(x) OVER " + w + " FROM t");
            Map<Object, List<Object>> expected = new HashMap<>();
            duck.forEach(row -> expected.put(row.get(0), row.subList(1, row.size())));
            List<List<Object>> actual = tc.rows(plan);
            assertThat(actual).hasSize(700);
            int first = WindowTestData.SCHEMA.getFields().size();
            for (List<Object> row : actual) {
                List<Object> want = expected.get(row.get(0));
                for (int c = 0; c < exprs.size(); c++) {
                    assertThat(WindowTestData.same(row.get(first + c), want.get(c)))
                            .as("%s of id %s: %s vs DuckDB %s", exprs.get(c).name(), row.get(0), row.get(first + c), want.get(c)).isTrue();
                }
            }
        }
    }

    private static WindowFunction aggregate(AggregateFunction function, ColumnExpr arg) {
        return new WindowFunction.Aggregate(new AggregateExpr(function, List.of(arg), false, "a", arg.type()));
    }

    @Test
    void aWindowPartitionLargerThanTheMemoryLimitFailsNamingWindowExec() {
        MemoryPool pool = new MemoryPool(1 << 20);
        try (TestingContext tc = new TestingContext(pool, new ExecutionConfig(4096, 2))) {
            List<List<Object>> rows = keyedRows(200_000, 1);
            ExecutionPlan plan = new WindowExec(new MemoryScanExec(KEYED, List.of(rows)), List.of(), List.of(),
                    List.of(sumOver(WindowFrame.WHOLE_PARTITION)));
            assertThatThrownBy(() -> tc.rows(plan))
                    .isInstanceOfSatisfying(ResourcesExhaustedException.class, e -> {
                        assertThat(e.errorCode()).isEqualTo(ErrorCode.EXCEEDED_MEMORY_LIMIT);
                        assertThat(e.consumer()).startsWith("WindowExec[partition=0]");
                    });
        }
    }

    @Test
    void manySmallWindowPartitionsOfTheSameRowsFitTheSameLimit() {
        MemoryPool pool = new MemoryPool(1 << 20);
        try (TestingContext tc = new TestingContext(pool, new ExecutionConfig(4096, 2))) {
            List<List<Object>> rows = keyedRows(200_000, 2000);
            PhysicalExpr k = new ColumnExpr(0, "k", QuiverTypes.INT32, false);
            ExecutionPlan plan = new WindowExec(new MemoryScanExec(KEYED, List.of(rows)), List.of(k), List.of(),
                    List.of(sumOver(WindowFrame.WHOLE_PARTITION)));
            List<List<Object>> result = tc.rows(plan);
            assertThat(result).hasSize(200_000);
            // partition 0 holds rows 0..99: their sum
            assertThat(result.get(0)).containsExactly(0, 0L, 4950L);
            assertThat(pool.peak()).isLessThan(1 << 20);
        }
    }

    @Test
    void ntileOfZeroAndNthValueOfZeroFail() {
        try (TestingContext tc = new TestingContext()) {
            ExecutionPlan input = new MemoryScanExec(KEYED, List.of(keyedRows(10, 2)));
            WindowExpr ntile = new WindowExpr(new WindowFunction.Ntile(new LiteralExpr(0L, QuiverTypes.INT64)), WindowFrame.DEFAULT_WITH_ORDER, "n");
            assertThatThrownBy(() -> tc.rows(new WindowExec(input, List.of(), List.of(), List.of(ntile))))
                    .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                    .hasMessageContaining("NTILE");
            ColumnExpr v = new ColumnExpr(1, "v", QuiverTypes.INT64, false);
            WindowExpr nth = new WindowExpr(new WindowFunction.FrameValue(WindowFunction.FrameValue.Position.NTH, v,
                    new LiteralExpr(0L, QuiverTypes.INT64), false), WindowFrame.WHOLE_PARTITION, "n");
            assertThatThrownBy(() -> tc.rows(new WindowExec(input, List.of(), List.of(), List.of(nth))))
                    .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                    .hasMessageContaining("NTH_VALUE");
        }
    }

    @Test
    void invalidFramesAreRefusedAtConstruction() {
        assertThatThrownBy(() -> new FrameOffset.Count(-1))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_ARGUMENT));
        assertThatThrownBy(() -> new WindowFrame(WindowFrame.Units.ROWS, FrameBound.following(new FrameOffset.Count(1)),
                FrameBound.preceding(new FrameOffset.Count(1)), WindowFrame.Exclusion.NO_OTHERS))
                .hasMessageContaining("start comes after the end");
        ExecutionPlan input = new MemoryScanExec(KEYED, List.of(List.of()));
        PhysicalExpr k = new ColumnExpr(0, "k", QuiverTypes.INT32, false);
        WindowFrame range = new WindowFrame(WindowFrame.Units.RANGE, FrameBound.preceding(new FrameOffset.Interval(1, 0)),
                FrameBound.currentRow(), WindowFrame.Exclusion.NO_OTHERS);
        assertThatThrownBy(() -> new WindowExec(input, List.of(), List.of(new SortKey(k, true, false)), List.of(sumOver(range))))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.TYPE_MISMATCH));
    }
}
