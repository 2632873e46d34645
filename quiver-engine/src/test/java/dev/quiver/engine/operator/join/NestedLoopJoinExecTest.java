package dev.quiver.engine.operator.join;

import static dev.quiver.engine.operator.join.JoinFixtures.LEFT;
import static dev.quiver.engine.operator.join.JoinFixtures.LV_LESS_THAN_RV;
import static dev.quiver.engine.operator.join.JoinFixtures.RIGHT;
import static dev.quiver.engine.operator.join.JoinOracle.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.error.ResourcesExhaustedException;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionConfig;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.memory.MemoryPool;
import dev.quiver.engine.source.memory.MemoryScanExec;
import dev.quiver.engine.testing.TestingContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiPredicate;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

class NestedLoopJoinExecTest {
    private static final List<List<Object>> LEFT_ROWS = List.of(
            row(1L, "a", 5), row(2L, "b", 15), row(3L, "c", null), row(4L, "d", 40), row(5L, "e", 0));
    private static final List<List<Object>> RIGHT_ROWS = List.of(
            row(10L, "x", 10), row(11L, "y", 20), row(12L, "z", null), row(13L, "w", 1), row(14L, "v", 3));
    private static final BiPredicate<List<Object>, List<Object>> LESS_THAN =
            (l, r) -> l.get(2) != null && r.get(2) != null && (Integer) l.get(2) < (Integer) r.get(2);

    enum Inputs {
        BOTH(LEFT_ROWS, RIGHT_ROWS),
        EMPTY_LEFT(List.of(), RIGHT_ROWS),
        EMPTY_RIGHT(LEFT_ROWS, List.of());

        final List<List<Object>> left;
        final List<List<Object>> right;

        Inputs(List<List<Object>> left, List<List<Object>> right) {
            this.left = left;
            this.right = right;
        }
    }

    static Stream<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        for (JoinType type : JoinType.values()) {
            for (Inputs inputs : Inputs.values()) {
                cases.add(Arguments.of(type, inputs, true));
                cases.add(Arguments.of(type, inputs, false));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} {1} filtered={2}")
    @MethodSource("cases")
    void joinMatchesOracle(JoinType type, Inputs inputs, boolean filtered) {
        Optional<PhysicalExpr> filter = filtered ? Optional.of(LV_LESS_THAN_RV) : Optional.empty();
        NestedLoopJoinExec join = new NestedLoopJoinExec(MemoryScanExec.split(LEFT, inputs.left, 2),
                MemoryScanExec.split(RIGHT, inputs.right, 2), type, filter);
        List<List<Object>> expected = JoinOracle.join(type, inputs.left, inputs.right, 3, 3, new int[0], new int[0],
                filtered ? LESS_THAN : (l, r) -> true);
        try (TestingContext testing = new TestingContext(MemoryPool.unlimited(), new ExecutionConfig(3, 2))) {
            List<List<Object>> actual = JoinTestRunner.rows(join, testing.context(), true);
            testing.reset();
            assertThat(actual).containsExactlyInAnyOrderElementsOf(expected);
        }
    }

    @Test
    void nonEquiFilterHandChecked() {
        NestedLoopJoinExec join = new NestedLoopJoinExec(MemoryScanExec.split(LEFT, LEFT_ROWS, 2),
                MemoryScanExec.split(RIGHT, RIGHT_ROWS, 3), JoinType.LEFT, Optional.of(LV_LESS_THAN_RV));
        try (TestingContext testing = new TestingContext(MemoryPool.unlimited(), new ExecutionConfig(2, 2))) {
            List<List<Object>> actual = JoinTestRunner.rows(join, testing.context(), false);
            testing.reset();
            assertThat(actual).containsExactlyInAnyOrder(
                    row(1L, "a", 5, 10L, "x", 10),
                    row(1L, "a", 5, 11L, "y", 20),
                    row(2L, "b", 15, 11L, "y", 20),
                    row(3L, "c", null, null, null, null),
                    row(4L, "d", 40, null, null, null),
                    row(5L, "e", 0, 10L, "x", 10),
                    row(5L, "e", 0, 11L, "y", 20),
                    row(5L, "e", 0, 13L, "w", 1),
                    row(5L, "e", 0, 14L, "v", 3));
        }
    }

    @Test
    void crossJoinOfLargerInputsIsEmittedInBatches() {
        List<List<Object>> left = new ArrayList<>();
        List<List<Object>> right = new ArrayList<>();
        for (int i = 0; i < 70; i++) {
            left.add(row((long) i, "l", i));
        }
        for (int i = 0; i < 130; i++) {
            right.add(row((long) i, "r", i));
        }
        NestedLoopJoinExec join = new NestedLoopJoinExec(MemoryScanExec.split(LEFT, left, 2), MemoryScanExec.split(RIGHT, right, 2),
                JoinType.INNER, Optional.empty());
        try (TestingContext testing = new TestingContext(MemoryPool.unlimited(), new ExecutionConfig(50, 2))) {
            List<List<Object>> actual = JoinTestRunner.rows(join, testing.context(), true);
            testing.reset();
            assertThat(actual).hasSize(70 * 130).doesNotHaveDuplicates();
        }
    }

    @Test
    void cancellationStopsALongRunOfRejectedPairs() {
        List<List<Object>> left = new ArrayList<>();
        List<List<Object>> right = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            left.add(row((long) i, "l", 1000));
            right.add(row((long) i, "r", 0));
        }
        try (TestingContext testing = new TestingContext(MemoryPool.unlimited(), new ExecutionConfig(100, 2))) {
            TaskContext context = testing.context();
            AtomicInteger evaluations = new AtomicInteger();
            // lv < rv never holds; the third evaluation cancels the task
            PhysicalExpr cancelling = new CancellingFilter(new IntLessThan(2, 5), context, evaluations);
            NestedLoopJoinExec join = new NestedLoopJoinExec(MemoryScanExec.split(LEFT, left, 1), MemoryScanExec.split(RIGHT, right, 1),
                    JoinType.INNER, Optional.of(cancelling));
            try (BatchStream stream = join.execute(0, context)) {
                assertThatThrownBy(stream::next).isInstanceOf(QuiverException.class)
                        .satisfies(e -> assertThat(((QuiverException) e).errorCode()).isEqualTo(ErrorCode.QUERY_CANCELLED));
            }
            assertThat(evaluations.get()).isEqualTo(3);
            testing.reset();
        }
    }

    /** Delegates to a filter and cancels the task on its third evaluation. */
    private record CancellingFilter(PhysicalExpr delegate, TaskContext context, AtomicInteger evaluations) implements PhysicalExpr {
        @Override
        public ArrowType type() {
            return delegate.type();
        }

        @Override
        public boolean nullable() {
            return true;
        }

        @Override
        public FieldVector evaluate(VectorSchemaRoot batch, BufferAllocator allocator) {
            if (evaluations.incrementAndGet() == 3) {
                context.cancel("test stops the query");
            }
            return delegate.evaluate(batch, allocator);
        }

        @Override
        public List<PhysicalExpr> children() {
            return delegate.children();
        }

        @Override
        public String display() {
            return delegate.display();
        }
    }

    @ParameterizedTest
    @EnumSource(value = JoinType.class, names = {"LEFT", "INNER"})
    void memoryLimitFailsTheBuildSide(JoinType type) {
        List<List<Object>> left = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            left.add(row((long) i, "left row " + i, i));
        }
        NestedLoopJoinExec join = new NestedLoopJoinExec(MemoryScanExec.split(LEFT, left, 2), MemoryScanExec.split(RIGHT, RIGHT_ROWS, 1),
                type, Optional.of(LV_LESS_THAN_RV));
        MemoryPool pool = new MemoryPool(100_000);
        try (TestingContext testing = new TestingContext(pool, new ExecutionConfig(1024, 2))) {
            try (BatchStream stream = join.execute(0, testing.context())) {
                assertThatThrownBy(stream::next).isInstanceOf(ResourcesExhaustedException.class)
                        .hasMessageContaining("NestedLoopJoinExec[build]");
            }
            assertThat(pool.used()).isZero();
            testing.reset();
        }
    }
}
