package dev.quiver.engine.operator.join;

import static dev.quiver.engine.operator.join.JoinFixtures.LEFT;
import static dev.quiver.engine.operator.join.JoinFixtures.RIGHT;
import static dev.quiver.engine.operator.join.JoinOracle.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.config.EngineSettings;
import dev.quiver.engine.error.ResourcesExhaustedException;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionConfig;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.memory.MemoryPool;
import dev.quiver.engine.operator.join.JoinFixtures.Scenario;
import dev.quiver.engine.source.memory.MemoryScanExec;
import dev.quiver.engine.testing.TestingContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

class HashJoinExecTest {
    private static final int BATCH_SIZE = 2;

    static Stream<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        for (JoinType type : JoinType.values()) {
            for (PartitionMode mode : PartitionMode.values()) {
                for (Scenario scenario : Scenario.values()) {
                    cases.add(Arguments.of(type, mode, scenario));
                }
            }
        }
        return cases.stream();
    }

    private static HashJoinExec join(JoinType type, PartitionMode mode, Scenario scenario) {
        boolean partitioned = mode == PartitionMode.PARTITIONED;
        ExecutionPlan left = JoinFixtures.scan(LEFT, scenario.left, partitioned, 2);
        ExecutionPlan right = JoinFixtures.scan(RIGHT, scenario.right, partitioned, 2);
        return new HashJoinExec(left, right, JoinFixtures.leftKeys(scenario.keyCount), JoinFixtures.rightKeys(scenario.keyCount),
                type, scenario.filter(), mode);
    }

    private static TestingContext testing(int batchSize) {
        return new TestingContext(MemoryPool.unlimited(), new ExecutionConfig(batchSize, 2));
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("cases")
    void joinMatchesOracle(JoinType type, PartitionMode mode, Scenario scenario) {
        try (TestingContext testing = testing(BATCH_SIZE)) {
            HashJoinExec join = join(type, mode, scenario);
            List<List<Object>> actual = JoinTestRunner.rows(join, testing.context(), mode == PartitionMode.COLLECT_LEFT);
            testing.reset();
            assertThat(actual).containsExactlyInAnyOrderElementsOf(scenario.expected(type));
            assertThat(join.metrics().outputRows()).isEqualTo(actual.size());
            assertThat(testing.pool().used()).isZero();
        }
    }

    @ParameterizedTest
    @EnumSource(PartitionMode.class)
    void nullKeysNeverMatchButAppearInOuterAndAntiOutput(PartitionMode mode) {
        try (TestingContext testing = testing(BATCH_SIZE)) {
            Scenario s = Scenario.NULL_KEYS;
            assertThat(run(testing, join(JoinType.FULL, mode, s), mode)).containsExactlyInAnyOrder(
                    row(1L, "a", 1, 1L, "a", 10),
                    row(2L, "b", 3, 2L, "b", 12),
                    row(null, "a", 2, null, null, null),
                    row(null, null, 4, null, null, null),
                    row(3L, "c", 5, null, null, null),
                    row(null, null, null, null, "a", 11),
                    row(null, null, null, 4L, "d", 13),
                    row(null, null, null, null, null, 14));
            assertThat(run(testing, join(JoinType.LEFT_ANTI, mode, s), mode)).containsExactlyInAnyOrder(
                    row(null, "a", 2), row(null, null, 4), row(3L, "c", 5));
            assertThat(run(testing, join(JoinType.RIGHT_SEMI, mode, s), mode)).containsExactlyInAnyOrder(
                    row(1L, "a", 10), row(2L, "b", 12));
        }
    }

    @ParameterizedTest
    @EnumSource(PartitionMode.class)
    void pairsFailingTheFilterAreNotMatches(PartitionMode mode) {
        try (TestingContext testing = testing(BATCH_SIZE)) {
            Scenario s = Scenario.RESIDUAL_FILTER;
            // key 1: lv 5 < rv 10 and 20; lv 15 < rv 20 only. key 2: 30 < 25 fails. key 3: lv NULL. key 4: rv NULL.
            assertThat(run(testing, join(JoinType.LEFT, mode, s), mode)).containsExactlyInAnyOrder(
                    row(1L, "a", 5, 1L, "x", 10),
                    row(1L, "a", 5, 1L, "y", 20),
                    row(1L, "b", 15, 1L, "y", 20),
                    row(2L, "c", 30, null, null, null),
                    row(3L, "d", null, null, null, null),
                    row(4L, "e", 1, null, null, null));
            assertThat(run(testing, join(JoinType.LEFT_ANTI, mode, s), mode)).containsExactlyInAnyOrder(
                    row(2L, "c", 30), row(3L, "d", null), row(4L, "e", 1));
            assertThat(run(testing, join(JoinType.RIGHT_ANTI, mode, s), mode)).containsExactlyInAnyOrder(
                    row(2L, "z", 25), row(3L, "w", 100), row(4L, "v", null), row(5L, "u", 0));
        }
    }

    private static List<List<Object>> run(TestingContext testing, ExecutionPlan plan, PartitionMode mode) {
        try {
            return JoinTestRunner.rows(plan, testing.context(), mode == PartitionMode.COLLECT_LEFT);
        } finally {
            testing.reset();
        }
    }

    @ParameterizedTest
    @EnumSource(value = JoinType.class, names = {"INNER", "LEFT", "LEFT_SEMI", "LEFT_ANTI", "RIGHT_SEMI"})
    void emptyBuildSideStopsWithoutReadingTheProbeSide(JoinType type) {
        try (TestingContext testing = testing(BATCH_SIZE)) {
            for (PartitionMode mode : PartitionMode.values()) {
                HashJoinExec join = join(type, mode, Scenario.EMPTY_BUILD);
                assertThat(run(testing, join, mode)).isEmpty();
                assertThat(join.right().metrics().outputRows()).isZero();
            }
        }
    }

    @ParameterizedTest
    @EnumSource(PartitionMode.class)
    void probeRowWithManyMatchesIsEmittedInChunks(PartitionMode mode) {
        List<List<Object>> left = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            left.add(row(7L, "l" + i, i));
        }
        List<List<Object>> right = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            right.add(row(7L, "r" + i, i));
        }
        boolean partitioned = mode == PartitionMode.PARTITIONED;
        HashJoinExec join = new HashJoinExec(JoinFixtures.scan(LEFT, left, partitioned, 2), JoinFixtures.scan(RIGHT, right, partitioned, 2),
                JoinFixtures.leftKeys(1), JoinFixtures.rightKeys(1), JoinType.INNER, Optional.empty(), mode);
        try (TestingContext testing = testing(64)) {
            List<Integer> batchSizes = new ArrayList<>();
            for (int p = 0; p < 2; p++) {
                try (BatchStream stream = join.execute(p, testing.context())) {
                    VectorSchemaRoot batch;
                    while ((batch = stream.next()) != null) {
                        batchSizes.add(batch.getRowCount());
                        batch.close();
                    }
                }
            }
            testing.reset();
            assertThat(batchSizes.stream().mapToInt(Integer::intValue).sum()).isEqualTo(300 * 40);
            assertThat(batchSizes).allSatisfy(size -> assertThat(size).isBetween(1, 64));
            assertThat(batchSizes.size()).isLessThanOrEqualTo(300 * 40 / 64 + 2 * 40);
        }
    }

    @ParameterizedTest
    @EnumSource(PartitionMode.class)
    void buildSideOverTheMemoryLimitFailsWithoutSpillingAndReleasesEverything(PartitionMode mode) {
        List<List<Object>> left = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            left.add(row((long) i, "some string " + i, i));
        }
        boolean partitioned = mode == PartitionMode.PARTITIONED;
        HashJoinExec join = new HashJoinExec(JoinFixtures.scan(LEFT, left, partitioned, 2),
                JoinFixtures.scan(RIGHT, List.of(row(1L, "x", 1)), partitioned, 2),
                JoinFixtures.leftKeys(1), JoinFixtures.rightKeys(1), JoinType.LEFT, Optional.empty(), mode);
        MemoryPool pool = new MemoryPool(200_000);
        // with spilling (the default) a partitioned join spills instead: JoinSpillTest covers that
        ExecutionConfig noSpilling = new ExecutionConfig(new ExecutionConfig(1024, 2).settings().with(EngineSettings.SPILL_ENABLED, false));
        try (TestingContext testing = new TestingContext(pool, noSpilling)) {
            String consumer = mode == PartitionMode.PARTITIONED ? "HashJoinExec[build, partition=0]" : "HashJoinExec[build, collect_left]";
            try (BatchStream stream = join.execute(0, testing.context())) {
                assertThatThrownBy(stream::next)
                        .isInstanceOf(ResourcesExhaustedException.class)
                        .hasMessageContaining(consumer);
                assertThat(pool.used()).isZero();
            }
            if (mode == PartitionMode.COLLECT_LEFT) {
                // the other probe partition sees the same failure, without building again
                try (BatchStream stream = join.execute(1, testing.context())) {
                    assertThatThrownBy(stream::next).isInstanceOf(ResourcesExhaustedException.class);
                }
            }
            testing.reset();
            assertThat(pool.used()).isZero();
        }
    }

    @ParameterizedTest
    @EnumSource(PartitionMode.class)
    void closingEarlyReleasesTheBuildSide(PartitionMode mode) {
        List<List<Object>> left = new ArrayList<>();
        List<List<Object>> right = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            left.add(row((long) (i % 100), "l" + i, i));
            right.add(row((long) (i % 50), "r" + i, i));
        }
        boolean partitioned = mode == PartitionMode.PARTITIONED;
        HashJoinExec join = new HashJoinExec(JoinFixtures.scan(LEFT, left, partitioned, 2), JoinFixtures.scan(RIGHT, right, partitioned, 2),
                JoinFixtures.leftKeys(1), JoinFixtures.rightKeys(1), JoinType.FULL, Optional.empty(), mode);
        try (TestingContext testing = testing(100)) {
            TaskContext context = testing.context();
            BatchStream first = join.execute(0, context);
            BatchStream second = join.execute(1, context);
            try (VectorSchemaRoot batch = first.next()) {
                assertThat(batch.getRowCount()).isPositive();
            }
            assertThat(testing.pool().used()).isPositive();
            first.close();
            second.close();
            assertThat(testing.pool().used()).isZero();
            assertThat(testing.allocator().getAllocatedMemory()).isZero();
            assertThat(join.metrics().peakMemoryBytes()).isPositive();
        }
    }

    @Test
    void collectLeftEmitsUnmatchedBuildRowsOnceWhenPartitionsRunConcurrently() {
        List<List<Object>> left = new ArrayList<>();
        List<List<Object>> right = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            left.add(row((long) i, "l", i));
        }
        for (int i = 0; i < 6000; i += 3) {
            right.add(row((long) i, "r", i));
        }
        HashJoinExec join = new HashJoinExec(MemoryScanExec.split(LEFT, left, 3), MemoryScanExec.split(RIGHT, right, 4),
                JoinFixtures.leftKeys(1), JoinFixtures.rightKeys(1), JoinType.LEFT_ANTI, Optional.empty(), PartitionMode.COLLECT_LEFT);
        try (TestingContext testing = testing(256)) {
            for (int attempt = 0; attempt < 5; attempt++) {
                List<List<Object>> rows = JoinTestRunner.rows(join, testing.context(), true);
                testing.reset();
                assertThat(rows).hasSize(5000 - 1667);
                assertThat(rows).allSatisfy(r -> assertThat((Long) r.get(0) % 3).isNotZero());
            }
        }
    }
}
