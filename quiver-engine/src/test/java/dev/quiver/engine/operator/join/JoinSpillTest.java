package dev.quiver.engine.operator.join;

import static dev.quiver.engine.operator.join.JoinFixtures.LEFT;
import static dev.quiver.engine.operator.join.JoinFixtures.RIGHT;
import static dev.quiver.engine.operator.join.JoinOracle.row;
import static dev.quiver.engine.testing.CancelOnceFilesExist.filesUnder;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.config.EngineSettings;
import dev.quiver.engine.config.Settings;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.error.ResourcesExhaustedException;
import dev.quiver.engine.execution.ExecutionConfig;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.execution.PlanExecutor;
import dev.quiver.engine.execution.QuiverExecutor;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.expr.ColumnExpr;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.memory.MemoryPool;
import dev.quiver.engine.metrics.PartitionMetrics;
import dev.quiver.engine.operator.exchange.CoalescePartitionsExec;
import dev.quiver.engine.operator.exchange.RepartitionExec;
import dev.quiver.engine.operator.limit.GlobalLimitExec;
import dev.quiver.engine.source.memory.MemoryScanExec;
import dev.quiver.engine.spill.SpillDirectory;
import dev.quiver.engine.spill.SpillMetrics;
import dev.quiver.engine.testing.CancelOnceFilesExist;
import dev.quiver.engine.testing.TestingContext;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Grace hash join: a partitioned join whose build side does not fit in the pool spills both
 * inputs hash-split into files and joins them pair by pair. The oracle is the same join run in
 * memory; results are compared as sorted row lists.
 */
class JoinSpillTest {
    private static final int BATCH_SIZE = 256;
    private static final int PARTITIONS = 2;
    /** Long and string keys, NULLs in both, many duplicates; the string key is correlated with the long one so both together still match. */
    private static final List<List<Object>> LEFT_ROWS = rows(30_000, 1);
    private static final List<List<Object>> RIGHT_ROWS = rows(25_000, 2);

    @TempDir
    Path spillDirectory;

    enum Keys {
        LONG(0), STRING(1), BOTH(0, 1);

        final int[] columns;

        Keys(int... columns) {
            this.columns = columns;
        }

        List<PhysicalExpr> of(Schema schema) {
            List<PhysicalExpr> keys = new ArrayList<>();
            for (int column : columns) {
                var field = schema.getFields().get(column);
                keys.add(new ColumnExpr(column, field.getName(), field.getType(), true));
            }
            return keys;
        }
    }

    static Stream<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        for (JoinType type : JoinType.values()) {
            for (Keys keys : Keys.values()) {
                cases.add(Arguments.of(type, keys, false));
            }
            cases.add(Arguments.of(type, Keys.LONG, true));
        }
        return cases.stream();
    }

    private static List<List<Object>> rows(int count, long seed) {
        Random random = new Random(seed);
        List<List<Object>> rows = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            Long k1 = random.nextInt(20) == 0 ? null : (long) random.nextInt(15_000);
            String k2 = random.nextInt(20) == 0 ? null : "key-" + (k1 == null ? random.nextInt(12_000) : k1 % 12_000);
            Integer value = random.nextInt(30) == 0 ? null : random.nextInt(1000);
            rows.add(row(k1, k2, value));
        }
        return rows;
    }

    private Settings settings(boolean spill) {
        return EngineSettings.REGISTRY.defaults().with(EngineSettings.BATCH_SIZE, BATCH_SIZE).with(EngineSettings.TARGET_PARTITIONS, PARTITIONS)
                .with(EngineSettings.SPILL_DIRECTORY, spillDirectory.toString()).with(EngineSettings.SPILL_ENABLED, spill);
    }

    private static HashJoinExec join(JoinType type, Keys keys, boolean filtered, List<List<Object>> left, List<List<Object>> right) {
        return join(type, keys, filtered, MemoryScanExec.split(LEFT, left, PARTITIONS), MemoryScanExec.split(RIGHT, right, PARTITIONS));
    }

    /** Both inputs hash-repartitioned on the keys, as the planner makes a partitioned join. */
    private static HashJoinExec join(JoinType type, Keys keys, boolean filtered, ExecutionPlan left, ExecutionPlan right) {
        List<PhysicalExpr> leftKeys = keys.of(LEFT);
        List<PhysicalExpr> rightKeys = keys.of(RIGHT);
        return new HashJoinExec(new RepartitionExec(left, new Partitioning.Hash(leftKeys, PARTITIONS)),
                new RepartitionExec(right, new Partitioning.Hash(rightKeys, PARTITIONS)), leftKeys, rightKeys, type,
                filtered ? Optional.of(JoinFixtures.LV_LESS_THAN_RV) : Optional.empty(), PartitionMode.PARTITIONED);
    }

    private record InMemory(List<String> rows, long peak) {}

    private InMemory inMemory(JoinType type, Keys keys, boolean filtered) {
        MemoryPool pool = MemoryPool.unlimited();
        try (TestingContext testing = new TestingContext(pool, new ExecutionConfig(settings(true)))) {
            HashJoinExec join = join(type, keys, filtered, LEFT_ROWS, RIGHT_ROWS);
            List<String> rows = sorted(testing.rows(join));
            assertThat(counter(join, SpillMetrics.SPILL_COUNT)).isZero();
            return new InMemory(rows, pool.peak());
        }
    }

    @ParameterizedTest(name = "{0} {1} filtered={2}")
    @MethodSource("cases")
    void joinsWithAQuarterOfTheMemoryItNeeds(JoinType type, Keys keys, boolean filtered) throws IOException {
        InMemory expected = inMemory(type, keys, filtered);
        assertThat(expected.rows()).isNotEmpty();
        MemoryPool pool = new MemoryPool(expected.peak() / 4);
        try (TestingContext testing = new TestingContext(pool, new ExecutionConfig(settings(true)))) {
            HashJoinExec join = join(type, keys, filtered, LEFT_ROWS, RIGHT_ROWS);
            assertThat(sorted(testing.rows(join))).isEqualTo(expected.rows());
            for (int p = 0; p < PARTITIONS; p++) {
                assertThat(join.metrics().partition(p).counters().get(SpillMetrics.SPILL_COUNT)).as("partition %s spilled", p).isPositive();
            }
            assertThat(counter(join, SpillMetrics.SPILLED_BYTES)).isPositive();
            // every build row is spilled, and every probe row whose spill partition has build rows (all, with these keys)
            assertThat(counter(join, SpillMetrics.SPILLED_ROWS)).isGreaterThanOrEqualTo(LEFT_ROWS.size() + RIGHT_ROWS.size());
            assertThat(join.metrics().outputRows()).isEqualTo(expected.rows().size());
            assertThat(pool.used()).isZero();
        }
        assertThat(filesUnder(spillDirectory)).isEmpty();
    }

    @Test
    void splitsAgainASpillPartitionThatStillDoesNotFit() throws IOException {
        InMemory expected = inMemory(JoinType.FULL, Keys.LONG, false);
        MemoryPool pool = new MemoryPool(expected.peak() / 16);
        try (TestingContext testing = new TestingContext(pool, new ExecutionConfig(settings(true)))) {
            HashJoinExec join = join(JoinType.FULL, Keys.LONG, false, LEFT_ROWS, RIGHT_ROWS);
            assertThat(sorted(testing.rows(join))).isEqualTo(expected.rows());
            // more files than one split per side and partition makes: some partitions were split again
            assertThat(counter(join, SpillMetrics.SPILL_COUNT)).isGreaterThan(2L * PARTITIONS * SpillHash.FAN_OUT);
        }
        assertThat(filesUnder(spillDirectory)).isEmpty();
    }

    @Test
    void oneKeyTooLargeForThePoolFailsSayingSpillingCannotHelp() throws IOException {
        List<List<Object>> left = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            left.add(row(7L, "same key " + i, i));
        }
        try (TestingContext testing = new TestingContext(new MemoryPool(200_000), new ExecutionConfig(settings(true)))) {
            assertThatThrownBy(() -> testing.rows(join(JoinType.INNER, Keys.LONG, false, left, List.of(row(7L, "x", 1)))))
                    .isInstanceOfSatisfying(ResourcesExhaustedException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.EXCEEDED_MEMORY_LIMIT))
                    .hasMessageContaining("HashJoinExec[build, partition=")
                    .hasMessageContaining("spilling cannot help");
            assertThat(testing.pool().used()).isZero();
        }
        assertThat(filesUnder(spillDirectory)).isEmpty();
    }

    @Test
    void failsWhenSpillingIsDisabled() {
        InMemory expected = inMemory(JoinType.INNER, Keys.LONG, false);
        try (TestingContext testing = new TestingContext(new MemoryPool(expected.peak() / 4), new ExecutionConfig(settings(false)))) {
            assertThatThrownBy(() -> testing.rows(join(JoinType.INNER, Keys.LONG, false, LEFT_ROWS, RIGHT_ROWS)))
                    .isInstanceOfSatisfying(ResourcesExhaustedException.class, e -> {
                        assertThat(e.errorCode()).isEqualTo(ErrorCode.EXCEEDED_MEMORY_LIMIT);
                        assertThat(e.consumer()).startsWith("HashJoinExec[build, partition=");
                    });
            assertThat(testing.pool().used()).isZero();
        }
    }

    @Test
    void aLimitClosingTheJoinEarlyLeavesNoFiles() throws IOException {
        InMemory expected = inMemory(JoinType.INNER, Keys.LONG, false);
        MemoryPool pool = new MemoryPool(expected.peak() / 4);
        try (TestingContext testing = new TestingContext(pool, new ExecutionConfig(settings(true)))) {
            HashJoinExec join = join(JoinType.INNER, Keys.LONG, false, LEFT_ROWS, RIGHT_ROWS);
            assertThat(testing.rows(new GlobalLimitExec(new CoalescePartitionsExec(join), 0, OptionalLong.of(10)))).hasSize(10);
            assertThat(counter(join, SpillMetrics.SPILL_COUNT)).isPositive();
            assertThat(pool.used()).isZero();
        }
        assertThat(filesUnder(spillDirectory)).isEmpty();
    }

    @Test
    void aQueryCancelledWhileSpillingLeavesNoFiles() throws IOException {
        InMemory expected = inMemory(JoinType.LEFT, Keys.LONG, false);
        try (BufferAllocator allocator = new RootAllocator(); QuiverExecutor executor = new QuiverExecutor("join-spill-cancel")) {
            MemoryPool pool = new MemoryPool(expected.peak() / 4);
            TaskContext context = new TaskContext("cancelled", allocator, pool, executor, new ExecutionConfig(settings(true)));
            // the probe input cancels the query once the build side has spill files on disk, and goes on producing
            HashJoinExec join = join(JoinType.LEFT, Keys.LONG, false, MemoryScanExec.split(LEFT, LEFT_ROWS, PARTITIONS),
                    new CancelOnceFilesExist(MemoryScanExec.split(RIGHT, RIGHT_ROWS, PARTITIONS), spillDirectory));
            try {
                assertThatThrownBy(() -> PlanExecutor.collectRows(join, context))
                        .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.QUERY_CANCELLED));
                assertThat(counter(join, SpillMetrics.SPILL_COUNT)).isPositive();
            } finally {
                context.close();
            }
            assertThat(filesUnder(spillDirectory)).isEmpty();
            assertThat(pool.used()).isZero();
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
    }

    @Test
    void aFullDiskFailsClearlyAndLeavesNoFiles() throws IOException {
        Path devFull = Path.of("/dev/full");
        assertThat(devFull).as("Linux's /dev/full, whose writes fail with ENOSPC").exists();
        SpillDirectory.FileOpener full = path -> {
            Files.createFile(path);
            return FileChannel.open(devFull, StandardOpenOption.WRITE);
        };
        InMemory expected = inMemory(JoinType.FULL, Keys.BOTH, false);
        try (BufferAllocator allocator = new RootAllocator(); QuiverExecutor executor = new QuiverExecutor("join-spill-full")) {
            MemoryPool pool = new MemoryPool(expected.peak() / 4);
            TaskContext context = new TaskContext("full", allocator, pool, executor, new ExecutionConfig(settings(true)),
                    Map.of(SpillDirectory.FileOpener.class, full));
            try {
                assertThatThrownBy(() -> PlanExecutor.collectRows(join(JoinType.FULL, Keys.BOTH, false, LEFT_ROWS, RIGHT_ROWS), context))
                        .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.SPILL_FAILED))
                        .hasMessageContaining("Could not write spill file " + spillDirectory)
                        .hasMessageContaining("No space left on device")
                        .hasMessageContaining("spill_directory");
            } finally {
                context.close();
            }
            assertThat(filesUnder(spillDirectory)).isEmpty();
            assertThat(pool.used()).isZero();
            assertThat(allocator.getAllocatedMemory()).isZero();
        }
    }

    @Test
    void collectLeftStillFailsAndSaysHowToPartitionTheJoin() {
        List<List<Object>> left = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            left.add(row((long) i, "some string " + i, i));
        }
        HashJoinExec join = new HashJoinExec(MemoryScanExec.split(LEFT, left, PARTITIONS), MemoryScanExec.split(RIGHT, RIGHT_ROWS, PARTITIONS),
                Keys.LONG.of(LEFT), Keys.LONG.of(RIGHT), JoinType.INNER, Optional.empty(), PartitionMode.COLLECT_LEFT);
        try (TestingContext testing = new TestingContext(new MemoryPool(200_000), new ExecutionConfig(settings(true)))) {
            assertThatThrownBy(() -> testing.rows(join))
                    .isInstanceOfSatisfying(ResourcesExhaustedException.class, e -> assertThat(e.consumer()).isEqualTo("HashJoinExec[build, collect_left]"))
                    .hasMessageContaining("a collect-left hash join does not spill")
                    .hasMessageContaining("hash_join_collect_left_max_rows");
            assertThat(testing.pool().used()).isZero();
        }
    }

    private static long counter(HashJoinExec join, String name) {
        long sum = 0;
        for (int p = 0; p < PARTITIONS; p++) {
            PartitionMetrics metrics = join.metrics().partition(p);
            sum += metrics.counters().getOrDefault(name, 0L);
        }
        return sum;
    }

    /** The rows as sorted strings: equal lists mean equal multisets of rows. */
    private static List<String> sorted(List<List<Object>> rows) {
        return rows.stream().map(Object::toString).sorted().toList();
    }
}
