package dev.quiver.engine.operator.recursive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.ExecutionConfig;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.expr.BinaryExpr;
import dev.quiver.engine.expr.BinaryOperator;
import dev.quiver.engine.expr.ColumnExpr;
import dev.quiver.engine.expr.LiteralExpr;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.memory.MemoryPool;
import dev.quiver.engine.operator.FilterExec;
import dev.quiver.engine.operator.ProjectionExec;
import dev.quiver.engine.operator.UnionExec;
import dev.quiver.engine.operator.ValuesExec;
import dev.quiver.engine.testing.TestingContext;
import dev.quiver.engine.types.QuiverTypes;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/** {@link RecursiveUnionExec} over the rows of its own last iteration; batches of 2 rows so that iterations span batches. */
class RecursiveUnionExecTest {
    private static final Schema SCHEMA = new Schema(List.of(QuiverTypes.field("n", QuiverTypes.INT64, false)));
    private static final ColumnExpr N = new ColumnExpr(0, "n", QuiverTypes.INT64, false);

    private static TestingContext testing() {
        return new TestingContext(new MemoryPool(64L << 20), new ExecutionConfig(2, 2));
    }

    /** {@code n + step} for the rows of the work table with {@code n < bound}. */
    private static ExecutionPlan step(long step, long bound) {
        ExecutionPlan scan = new WorkTableScanExec("r", SCHEMA);
        ExecutionPlan filtered = new FilterExec(new BinaryExpr(BinaryOperator.LT, N, new LiteralExpr(bound, QuiverTypes.INT64), QuiverTypes.BOOLEAN), scan);
        PhysicalExpr next = new BinaryExpr(BinaryOperator.PLUS, N, new LiteralExpr(step, QuiverTypes.INT64), QuiverTypes.INT64);
        return new ProjectionExec(List.of(next), List.of("n"), filtered);
    }

    private static ValuesExec seed(long... values) {
        List<List<Object>> rows = new ArrayList<>();
        for (long value : values) {
            rows.add(List.of(value));
        }
        return new ValuesExec(SCHEMA, rows);
    }

    @Test
    void unionAllRepeatsTheStepOverTheLastIterationUntilItIsEmpty() {
        try (TestingContext testing = testing()) {
            RecursiveUnionExec recursion = new RecursiveUnionExec(seed(1, 100), step(1, 5), "r", false, 100);
            // 1..5 from the first seed row, 100 stops at once; iterations carry more rows than a batch
            assertThat(testing.rows(recursion)).containsExactlyInAnyOrder(List.of(1L), List.of(100L), List.of(2L), List.of(3L), List.of(4L), List.of(5L));
            assertThat(testing.pool().used()).isZero();
        }
    }

    @Test
    void unionDropsRowsProducedBeforeSoACycleEnds() {
        try (TestingContext testing = testing()) {
            // n -> n % 3 + 1 cycles 1, 2, 3, 1, ...: UNION ALL would never end, UNION stops once no row is new
            PhysicalExpr cycle = new BinaryExpr(BinaryOperator.PLUS, new BinaryExpr(BinaryOperator.MODULO, N, new LiteralExpr(3L, QuiverTypes.INT64),
                    QuiverTypes.INT64), new LiteralExpr(1L, QuiverTypes.INT64), QuiverTypes.INT64);
            ExecutionPlan step = new ProjectionExec(List.of(cycle), List.of("n"), new WorkTableScanExec("r", SCHEMA));
            RecursiveUnionExec recursion = new RecursiveUnionExec(seed(1, 1), step, "r", true, 100);
            assertThat(testing.rows(recursion)).containsExactly(List.of(1L), List.of(2L), List.of(3L));
            assertThat(testing.pool().used()).isZero();
        }
    }

    @Test
    void aRecursionPastItsLimitFailsNamingIt() {
        try (TestingContext testing = testing()) {
            RecursiveUnionExec recursion = new RecursiveUnionExec(seed(1), step(1, Long.MAX_VALUE), "r", false, 7);
            assertThatThrownBy(() -> testing.rows(recursion)).isInstanceOfSatisfying(QuiverException.class, e -> {
                assertThat(e.errorCode()).isEqualTo(ErrorCode.RECURSION_LIMIT_EXCEEDED);
                assertThat(e.getMessage()).contains("r").contains("7 iterations");
            });
            assertThat(testing.pool().used()).isZero();
        }
    }

    @Test
    void aStepThatReadsTheTableTwiceSeesItTwice() {
        try (TestingContext testing = testing()) {
            // r UNION ALL r, both over the last iteration: 1 -> 2, 2 -> 3, 3, 3 ...
            ExecutionPlan both = new UnionExec(List.of(step(1, 3), step(1, 3)));
            RecursiveUnionExec recursion = new RecursiveUnionExec(seed(1), new dev.quiver.engine.operator.exchange.CoalescePartitionsExec(both),
                    "r", false, 100);
            assertThat(testing.rows(recursion)).containsExactlyInAnyOrder(List.of(1L), List.of(2L), List.of(2L), List.of(3L), List.of(3L),
                    List.of(3L), List.of(3L));
        }
    }

    @Test
    void needsOnePartitionAndAScanOfItsTable() {
        assertThatThrownBy(() -> new RecursiveUnionExec(seed(1), seed(2), "r", false, 10)).isInstanceOf(QuiverException.class)
                .hasMessageContaining("does not read r");
        assertThatThrownBy(() -> new RecursiveUnionExec(seed(1), step(1, 3), "r", false, 0)).isInstanceOf(QuiverException.class);
    }
}
