package dev.quiver.engine.operator.join;

import static dev.quiver.engine.operator.join.JoinOracle.row;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.engine.execution.ExecutionConfig;
import dev.quiver.engine.expr.BinaryExpr;
import dev.quiver.engine.expr.BinaryOperator;
import dev.quiver.engine.expr.ColumnExpr;
import dev.quiver.engine.expr.LiteralExpr;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.memory.MemoryPool;
import dev.quiver.engine.source.memory.MemoryScanExec;
import dev.quiver.engine.testing.TestingContext;
import dev.quiver.engine.types.QuiverTypes;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Keys of every supported type, computed keys, and filters built from the real expression evaluator. */
class JoinKeyTypesTest {
    static Stream<Arguments> keyTypes() {
        return Stream.of(
                Arguments.of(QuiverTypes.INT32, List.of(1, 2, 3, -7), 5),
                Arguments.of(QuiverTypes.INT64, List.of(1L, 2L, Long.MAX_VALUE, Long.MIN_VALUE), 6L),
                Arguments.of(QuiverTypes.DATE32, List.of(0, 10_000, 19_000, -5), 12),
                Arguments.of(QuiverTypes.decimal(15, 2), List.of(new BigDecimal("1.00"), new BigDecimal("-2.50"),
                        new BigDecimal("9999999999999.99"), new BigDecimal("0.01")), new BigDecimal("3.33")),
                Arguments.of(QuiverTypes.decimal(38, 4), List.of(new BigDecimal("12345678901234567890123456789.1234"),
                        new BigDecimal("-1.0000"), new BigDecimal("0.0000"), new BigDecimal("7.0001")), new BigDecimal("7.0002")),
                Arguments.of(QuiverTypes.UTF8, List.of("", "a", "a longer string than eight bytes", "ünïcødé"), "b"),
                Arguments.of(QuiverTypes.BOOLEAN, List.of(true, false, true, false), true),
                Arguments.of(QuiverTypes.FLOAT64, List.of(1.5, -2.25, 1e300, 0.1), 3.0));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("keyTypes")
    void everyKeyTypeJoins(ArrowType type, List<Object> values, Object unmatched) {
        Schema left = new Schema(List.of(QuiverTypes.field("lk", type, true), QuiverTypes.field("lv", QuiverTypes.INT32, true)));
        Schema right = new Schema(List.of(QuiverTypes.field("rk", type, true), QuiverTypes.field("rv", QuiverTypes.INT32, true)));
        List<List<Object>> leftRows = new ArrayList<>();
        List<List<Object>> rightRows = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            leftRows.add(row(i % 9 == 0 ? null : values.get(i % values.size()), i));
            rightRows.add(row(i % 7 == 0 ? null : i % 5 == 0 ? unmatched : values.get((i * 3) % values.size()), 100 + i));
        }
        for (JoinType joinType : List.of(JoinType.INNER, JoinType.FULL, JoinType.LEFT_ANTI, JoinType.RIGHT_SEMI)) {
            HashJoinExec join = new HashJoinExec(MemoryScanExec.split(left, leftRows, 2), MemoryScanExec.split(right, rightRows, 2),
                    List.of(new ColumnExpr(0, "lk", type, true)), List.of(new ColumnExpr(0, "rk", type, true)), joinType,
                    Optional.empty(), PartitionMode.COLLECT_LEFT);
            List<List<Object>> expected = JoinOracle.join(joinType, leftRows, rightRows, 2, 2, new int[] {0}, new int[] {0}, (l, r) -> true);
            try (TestingContext testing = new TestingContext(MemoryPool.unlimited(), new ExecutionConfig(7, 2))) {
                List<List<Object>> actual = JoinTestRunner.rows(join, testing.context(), false);
                testing.reset();
                assertThat(actual).as("%s", joinType).containsExactlyInAnyOrderElementsOf(expected);
            }
        }
    }

    @Test
    void doubleKeysFollowSqlEquality() {
        Schema left = new Schema(List.of(QuiverTypes.field("lk", QuiverTypes.FLOAT64, true)));
        Schema right = new Schema(List.of(QuiverTypes.field("rk", QuiverTypes.FLOAT64, true)));
        HashJoinExec join = new HashJoinExec(
                new MemoryScanExec(left, List.of(List.of(row(0.0), row(Double.NaN), row(1.0)))),
                new MemoryScanExec(right, List.of(List.of(row(-0.0), row(Double.NaN), row(2.0)))),
                List.of(new ColumnExpr(0, "lk", QuiverTypes.FLOAT64, true)), List.of(new ColumnExpr(0, "rk", QuiverTypes.FLOAT64, true)),
                JoinType.INNER, Optional.empty(), PartitionMode.PARTITIONED);
        try (TestingContext testing = new TestingContext()) {
            assertThat(testing.rows(join)).containsExactlyInAnyOrder(row(0.0, -0.0), row(Double.NaN, Double.NaN));
        }
    }

    @Test
    void computedKeysAndEvaluatedFilter() {
        // ON l.lk1 + 1 = r.rk1 AND l.lk2 <> r.rk2, with the filter and the left key evaluated by the expression kernels
        PhysicalExpr leftKey = new BinaryExpr(BinaryOperator.PLUS, new ColumnExpr(0, "lk1", QuiverTypes.INT64, true),
                new LiteralExpr(1L, QuiverTypes.INT64), QuiverTypes.INT64);
        PhysicalExpr filter = new BinaryExpr(BinaryOperator.NOT_EQ, new ColumnExpr(1, "lk2", QuiverTypes.UTF8, true),
                new ColumnExpr(4, "rk2", QuiverTypes.UTF8, true), QuiverTypes.BOOLEAN);
        List<List<Object>> leftRows = List.of(row(1L, "a", 1), row(1L, "b", 2), row(2L, "a", 3), row(null, "a", 4), row(5L, null, 5));
        List<List<Object>> rightRows = List.of(row(2L, "a", 10), row(2L, "c", 11), row(3L, "a", 12), row(6L, "x", 13), row(7L, "a", 14));
        for (JoinType type : JoinType.values()) {
            for (PartitionMode mode : PartitionMode.values()) {
                // computed keys defeat the tests' key split: a partitioned join gets every row in partition 0
                boolean partitioned = mode == PartitionMode.PARTITIONED;
                HashJoinExec join = new HashJoinExec(
                        partitioned ? new MemoryScanExec(JoinFixtures.LEFT, List.of(leftRows, List.of()))
                                : MemoryScanExec.split(JoinFixtures.LEFT, leftRows, 2),
                        partitioned ? new MemoryScanExec(JoinFixtures.RIGHT, List.of(rightRows, List.of()))
                                : MemoryScanExec.split(JoinFixtures.RIGHT, rightRows, 2),
                        List.of(leftKey), List.of(new ColumnExpr(0, "rk1", QuiverTypes.INT64, true)), type, Optional.of(filter), mode);
                List<List<Object>> expected = new ArrayList<>();
                List<List<Object>> shiftedLeft = new ArrayList<>();
                for (List<Object> l : leftRows) {
                    shiftedLeft.add(row(l.get(0) == null ? null : (Long) l.get(0) + 1, l.get(1), l.get(2)));
                }
                for (List<Object> r : JoinOracle.join(type, shiftedLeft, rightRows, 3, 3, new int[] {0}, new int[] {0},
                        (l, r) -> l.get(1) != null && r.get(1) != null && !l.get(1).equals(r.get(1)))) {
                    expected.add(unshift(type, r));
                }
                try (TestingContext testing = new TestingContext(MemoryPool.unlimited(), new ExecutionConfig(2, 2))) {
                    List<List<Object>> actual = JoinTestRunner.rows(join, testing.context(), true);
                    testing.reset();
                    assertThat(actual).as("%s %s", type, mode).containsExactlyInAnyOrderElementsOf(expected);
                }
            }
        }
    }

    /** Undoes the oracle's shifted left key in an output row (left columns come first where present). */
    private static List<Object> unshift(JoinType type, List<Object> row) {
        List<Object> copy = new ArrayList<>(row);
        if (type.outputsLeft() && copy.get(0) != null) {
            copy.set(0, (Long) copy.get(0) - 1);
        }
        return copy;
    }
}
