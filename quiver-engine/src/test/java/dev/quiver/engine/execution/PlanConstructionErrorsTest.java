package dev.quiver.engine.execution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.expr.ColumnExpr;
import dev.quiver.engine.operator.UnionExec;
import dev.quiver.engine.operator.exchange.RepartitionExec;
import dev.quiver.engine.operator.limit.GlobalLimitExec;
import dev.quiver.engine.operator.limit.LocalLimitExec;
import dev.quiver.engine.operator.sort.SortExec;
import dev.quiver.engine.operator.sort.SortKey;
import dev.quiver.engine.operator.window.WindowFunction;
import dev.quiver.engine.source.memory.MemoryScanExec;
import dev.quiver.engine.testing.TestingContext;
import dev.quiver.engine.types.QuiverTypes;
import java.util.List;
import java.util.OptionalLong;
import org.apache.arrow.vector.types.pojo.Schema;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/** Building a plan wrongly is a PLAN_ERROR naming the node and the bad value (the {@link ExecutionPlan} contract), not an IllegalArgumentException. */
class PlanConstructionErrorsTest {
    private static final Schema SCHEMA = new Schema(List.of(QuiverTypes.field("x", QuiverTypes.INT64, true)));
    private static final ColumnExpr X = new ColumnExpr(0, "x", QuiverTypes.INT64, true);

    private static ExecutionPlan scan(int partitions) {
        return MemoryScanExec.split(SCHEMA, List.of(List.of(1L), List.of(2L), List.of(3L)), partitions);
    }

    @Test
    void operatorsNameThemselvesAndTheBadInput() {
        assertPlanError(() -> new SortExec(scan(1), List.of(), OptionalLong.empty(), false), "SortExec: needs at least one key");
        assertPlanError(() -> new SortExec(scan(3), List.of(new SortKey(X, true, false)), OptionalLong.empty(), false),
                "SortExec: without preservePartitioning needs a single-partition input, not 3 partitions");
        assertPlanError(() -> new GlobalLimitExec(scan(1), -2, OptionalLong.empty()), "GlobalLimitExec: skip must not be negative: -2");
        assertPlanError(() -> new GlobalLimitExec(scan(2), 0, OptionalLong.of(1)), "GlobalLimitExec: needs a single-partition input, not 2 partitions");
        assertPlanError(() -> new LocalLimitExec(scan(1), -1), "LocalLimitExec: fetch must not be negative: -1");
        assertPlanError(() -> new RepartitionExec(scan(2), new Partitioning.Single()), "RepartitionExec: supports hash and round-robin partitioning");
        assertPlanError(() -> new UnionExec(List.of()), "UnionExec: needs at least one input");
        assertPlanError(() -> new MemoryScanExec(SCHEMA, List.of()), "MemoryScanExec: needs at least one partition");
    }

    @Test
    void expressionsTypesAndPropertiesToo() {
        assertPlanError(() -> new ColumnExpr(-1, "y", QuiverTypes.INT64, true), "column y: index must not be negative: -1");
        assertPlanError(() -> QuiverTypes.decimal(40, 2), "decimal type: decimal(40, 2) needs 1 <= precision <= 38 and 0 <= scale <= precision");
        assertPlanError(() -> new Partitioning.RoundRobin(0), "Partitioning: partition count must be at least 1: 0");
    }

    @Test
    void windowFunctionsNameTheFunctionAndTheBadType() {
        ColumnExpr d = new ColumnExpr(0, "d", QuiverTypes.FLOAT64, true);
        assertPlanError(() -> new WindowFunction.LagLead(false, X, d, X, false), "LAG offset must be an integer, not DOUBLE");
        assertPlanError(() -> new WindowFunction.LagLead(true, X, X, d, false), "LEAD default of type DOUBLE");
        assertPlanError(() -> new WindowFunction.FrameValue(WindowFunction.FrameValue.Position.NTH, X, d, false),
                "NTH_VALUE position must be an integer, not DOUBLE");
    }

    @Test
    void executingAPartitionThePlanDoesNotHaveIsAPlanError() {
        try (TestingContext testing = new TestingContext()) {
            assertPlanError(() -> scan(2).execute(5, testing.context()), "MemoryScanExec: has 2 partitions; asked for partition 5");
        }
    }

    @Test
    void aBadExecutionConfigIsTheSettingsError() {
        assertThatThrownBy(() -> new ExecutionConfig(0, 2)).isInstanceOfSatisfying(QuiverException.class, e -> {
            assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_CONFIGURATION);
            assertThat(e.getMessage()).isEqualTo("Invalid value '0' for setting batch_size: expected a whole number, at least 1");
        });
    }

    @Test
    void aMessageFormatsOnlyWhatItHasArgumentsFor() {
        assertThat(PlanChecks.planError("N", "a %s b %s c", 1).getMessage()).isEqualTo("N: a 1 b %s c");
        assertThat(PlanChecks.planError("N", "no args", 1, 2).getMessage()).isEqualTo("N: no args");
        PlanChecks.checkArgument(true, "N", "never %s", "shown");
    }

    private static void assertPlanError(ThrowingCallable call, String message) {
        assertThatThrownBy(call).isInstanceOfSatisfying(QuiverException.class, e -> {
            assertThat(e.errorCode()).isEqualTo(ErrorCode.PLAN_ERROR);
            assertThat(e.getMessage()).startsWith(message);
        });
    }
}
