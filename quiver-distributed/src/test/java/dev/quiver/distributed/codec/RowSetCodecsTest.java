package dev.quiver.distributed.codec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.PlanDisplay;
import dev.quiver.engine.expr.BinaryExpr;
import dev.quiver.engine.expr.BinaryOperator;
import dev.quiver.engine.expr.ColumnExpr;
import dev.quiver.engine.expr.LiteralExpr;
import dev.quiver.engine.operator.FilterExec;
import dev.quiver.engine.operator.ProjectionExec;
import dev.quiver.engine.operator.ReplicateRowsExec;
import dev.quiver.engine.operator.ValuesExec;
import dev.quiver.engine.operator.recursive.RecursiveUnionExec;
import dev.quiver.engine.operator.recursive.WorkTableScanExec;
import dev.quiver.engine.operator.unnest.UnnestExec;
import dev.quiver.engine.testing.TestingContext;
import dev.quiver.engine.types.QuiverTypes;
import java.util.List;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/** The plan nodes of INTERSECT ALL / EXCEPT ALL, WITH RECURSIVE and UNNEST travel to workers and run the same there. */
class RowSetCodecsTest {
    private static final Schema COUNTED = new Schema(List.of(QuiverTypes.field("s", QuiverTypes.UTF8, true),
            QuiverTypes.field("times", QuiverTypes.INT64, false)));
    private static final Schema NUMBERS = new Schema(List.of(QuiverTypes.field("n", QuiverTypes.INT64, false)));

    private final PlanCodec codec = PlanCodec.create();

    private ExecutionPlan roundTrip(ExecutionPlan plan) {
        byte[] bytes = codec.encode(plan);
        ExecutionPlan decoded = codec.decode(bytes);
        assertThat(decoded).isNotSameAs(plan);
        assertThat(PlanDisplay.indent(decoded)).isEqualTo(PlanDisplay.indent(plan));
        assertThat(decoded.schema()).isEqualTo(plan.schema());
        assertThat(codec.encode(decoded)).isEqualTo(bytes);
        return decoded;
    }

    @Test
    void replicateRows() {
        ExecutionPlan plan = new ReplicateRowsExec(new ValuesExec(COUNTED, List.of(List.of("a", 2L), List.of("b", 0L), List.of("c", 1L))));
        try (TestingContext testing = new TestingContext()) {
            assertThat(testing.rows(roundTrip(plan))).containsExactly(List.of("a"), List.of("a"), List.of("c"));
        }
    }

    @Test
    void unnest() {
        Schema lists = new Schema(List.of(QuiverTypes.field("id", QuiverTypes.INT32, false),
                QuiverTypes.list("a", QuiverTypes.field(QuiverTypes.LIST_ELEMENT, QuiverTypes.INT64, true), true),
                QuiverTypes.list("b", QuiverTypes.field(QuiverTypes.LIST_ELEMENT, QuiverTypes.UTF8, true), true)));
        UnnestExec plan = new UnnestExec(List.of(2, 1), List.of("y", "x"), new ValuesExec(lists, List.of()));
        UnnestExec decoded = (UnnestExec) roundTrip(plan);
        assertThat(decoded.lists()).containsExactly(2, 1);
        assertThat(decoded.names()).containsExactly("y", "x");
        try (TestingContext testing = new TestingContext()) {
            assertThat(testing.rows(decoded)).isEmpty();
        }
    }

    @Test
    void recursiveUnionAndItsWorkTable() {
        ColumnExpr n = new ColumnExpr(0, "n", QuiverTypes.INT64, false);
        ExecutionPlan step = new ProjectionExec(List.of(new BinaryExpr(BinaryOperator.PLUS, n, new LiteralExpr(1L, QuiverTypes.INT64), QuiverTypes.INT64)),
                List.of("n"), new FilterExec(new BinaryExpr(BinaryOperator.LT, n, new LiteralExpr(4L, QuiverTypes.INT64), QuiverTypes.BOOLEAN),
                        new WorkTableScanExec("r", NUMBERS)));
        RecursiveUnionExec plan = new RecursiveUnionExec(new ValuesExec(NUMBERS, List.of(List.of(1L))), step, "r", true, 50);
        RecursiveUnionExec decoded = (RecursiveUnionExec) roundTrip(plan);
        assertThat(decoded.distinct()).isTrue();
        assertThat(decoded.maxIterations()).isEqualTo(50);
        try (TestingContext testing = new TestingContext()) {
            assertThat(testing.rows(decoded)).containsExactly(List.of(1L), List.of(2L), List.of(3L), List.of(4L));
        }
    }
}
