package dev.quiver.engine.operator.aggregate;

import static dev.quiver.engine.operator.aggregate.AggregateFunction.AVG;
import static dev.quiver.engine.operator.aggregate.AggregateFunction.COUNT;
import static dev.quiver.engine.operator.aggregate.AggregateFunction.MAX;
import static dev.quiver.engine.operator.aggregate.AggregateFunction.MIN;
import static dev.quiver.engine.operator.aggregate.AggregateFunction.SUM;
import static dev.quiver.engine.operator.aggregate.AggregateTesting.agg;
import static dev.quiver.engine.operator.aggregate.AggregateTesting.allRows;
import static dev.quiver.engine.operator.aggregate.AggregateTesting.col;
import static dev.quiver.engine.operator.aggregate.AggregateTesting.countStar;
import static dev.quiver.engine.operator.aggregate.AggregateTesting.distinct;
import static dev.quiver.engine.operator.aggregate.AggregateTesting.finalOver;
import static dev.quiver.engine.operator.aggregate.AggregateTesting.partial;
import static dev.quiver.engine.operator.aggregate.AggregateTesting.single;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.config.EngineSettings;
import dev.quiver.engine.config.Settings;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.error.ResourcesExhaustedException;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionConfig;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.execution.PlanExecutor;
import dev.quiver.engine.execution.QuiverExecutor;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.memory.MemoryPool;
import dev.quiver.engine.operator.exchange.RepartitionExec;
import dev.quiver.engine.source.memory.MemoryScanExec;
import dev.quiver.engine.spill.SpillDirectory;
import dev.quiver.engine.spill.SpillMetrics;
import dev.quiver.engine.testing.CancelOnceSpilled;
import dev.quiver.engine.testing.TestingContext;
import dev.quiver.engine.types.QuiverTypes;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A hash aggregate that the pool refuses spills its groups' partial states and merges them back;
 * the oracle is the same plan run with an unlimited pool, compared as sorted row lists.
 */
class HashAggregateSpillTest {
    private static final Schema SCHEMA = new Schema(List.of(
            QuiverTypes.field("k_long", QuiverTypes.INT64, true),
            QuiverTypes.field("k_str", QuiverTypes.UTF8, true),
            QuiverTypes.field("k_dec", QuiverTypes.decimal(12, 2), true),
            QuiverTypes.field("v_long", QuiverTypes.INT64, true),
            QuiverTypes.field("v_dec", QuiverTypes.decimal(12, 2), true),
            QuiverTypes.field("v_str", QuiverTypes.UTF8, true)));
    private static final int ROW_COUNT = 40_000;
    private static final List<List<Object>> ROWS = rows(ROW_COUNT);
    private static final List<AggregateExpr> AGGREGATES = List.of(
            countStar(),
            agg(COUNT, col(SCHEMA, "v_long"), "count_v", QuiverTypes.INT64),
            agg(SUM, col(SCHEMA, "v_long"), "sum_long", QuiverTypes.INT64),
            agg(SUM, col(SCHEMA, "v_dec"), "sum_dec", QuiverTypes.decimal(22, 2)),
            agg(MIN, col(SCHEMA, "v_str"), "min_str", QuiverTypes.UTF8),
            agg(MAX, col(SCHEMA, "v_str"), "max_str", QuiverTypes.UTF8),
            agg(MIN, col(SCHEMA, "v_dec"), "min_dec", QuiverTypes.decimal(12, 2)),
            agg(MAX, col(SCHEMA, "v_long"), "max_long", QuiverTypes.INT64),
            agg(AVG, col(SCHEMA, "v_long"), "avg_long", QuiverTypes.FLOAT64),
            agg(AVG, col(SCHEMA, "v_dec"), "avg_dec", QuiverTypes.decimal(12, 2)));
    private static final int BATCH_SIZE = 512;

    @TempDir
    Path spillDirectory;

    /** About 15,000 groups of any two keys, NULL keys among them; every row differs in its values. */
    private static List<List<Object>> rows(int count) {
        List<List<Object>> rows = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            rows.add(Arrays.asList(
                    i % 13 == 0 ? null : (long) (i % 3001) * 7919,
                    i % 17 == 0 ? null : "group-" + i % 5,
                    i % 19 == 0 ? null : BigDecimal.valueOf(i % 2999, 2),
                    i % 7 == 0 ? null : (long) i * 31 - 50_000,
                    i % 9 == 0 ? null : BigDecimal.valueOf(i * 13L - 7_000, 2),
                    i % 11 == 0 ? null : "v" + Integer.toHexString(i * 0x9E3779B1)));
        }
        return rows;
    }

    private Settings settings(boolean spill) {
        return EngineSettings.REGISTRY.defaults().with(EngineSettings.BATCH_SIZE, BATCH_SIZE).with(EngineSettings.TARGET_PARTITIONS, 2)
                .with(EngineSettings.SPILL_DIRECTORY, spillDirectory.toString()).with(EngineSettings.SPILL_ENABLED, spill);
    }

    /** The PARTIAL states of ROWS (computed with an unlimited pool), as the FINAL aggregate's input rows. */
    private static final class States {
        final HashAggregateExec partial;
        final List<List<Object>> rows;

        States(List<String> keys) {
            this.partial = partial(MemoryScanExec.split(SCHEMA, ROWS, 2), keys, AGGREGATES);
            try (TestingContext testing = new TestingContext(MemoryPool.unlimited(), new ExecutionConfig(BATCH_SIZE, 2))) {
                this.rows = allRows(partial, testing.context());
            }
        }

        /** FINAL over the states hash-partitioned into two partitions, as the planner builds it. */
        HashAggregateExec twoPartitionFinal() {
            List<PhysicalExpr> keys = new ArrayList<>();
            for (int k = 0; k < partial.groupExprs().size(); k++) {
                keys.add(col(partial.schema(), partial.groupNames().get(k)));
            }
            ExecutionPlan input = new RepartitionExec(MemoryScanExec.split(partial.schema(), rows, 2), new Partitioning.Hash(keys, 2));
            return new HashAggregateExec(AggregateMode.FINAL, keys, partial.groupNames(), AGGREGATES, input);
        }
    }

    /** The rows and the pool's peak of running {@code plan} with an unlimited pool. */
    private record InMemory(List<List<Object>> rows, long peak) {}

    private InMemory inMemory(ExecutionPlan plan) {
        MemoryPool pool = MemoryPool.unlimited();
        try (TestingContext testing = new TestingContext(pool, new ExecutionConfig(settings(true)))) {
            List<List<Object>> rows = sorted(testing.rows(plan));
            return new InMemory(rows, pool.peak());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"k_long,k_str", "k_dec,k_str", "k_long,k_dec"})
    void finalSpillsWithAQuarterOfTheMemoryItNeeds(String keyList) throws IOException {
        States states = new States(List.of(keyList.split(",")));
        HashAggregateExec plan = states.twoPartitionFinal();
        InMemory oracle = inMemory(plan);
        assertThat(oracle.rows().size()).isGreaterThan(5_000);
        assertThat(oracle.rows().stream().mapToLong(row -> (Long) row.get(2)).sum()).isEqualTo(ROW_COUNT);
        assertThat(plan.metrics().partition(0).counters()).doesNotContainKey(SpillMetrics.SPILL_COUNT);

        MemoryPool pool = new MemoryPool(oracle.peak() / 4);
        try (TestingContext testing = new TestingContext(pool, new ExecutionConfig(settings(true)))) {
            HashAggregateExec spilling = states.twoPartitionFinal();
            assertThat(sorted(testing.rows(spilling))).isEqualTo(oracle.rows());
            for (int p = 0; p < 2; p++) {
                Map<String, Long> counters = spilling.metrics().partition(p).counters();
                assertThat(counters.get(SpillMetrics.SPILL_COUNT)).as("partition %s spilled", p).isPositive();
                assertThat(counters.get(SpillMetrics.SPILLED_ROWS)).isPositive();
                assertThat(counters.get(SpillMetrics.SPILLED_BYTES)).isPositive();
            }
            assertThat(pool.used()).isZero();
        }
        // TestingContext.close checked the allocator is empty and the pool at 0
        assertThat(filesUnder(spillDirectory)).isEmpty();
    }

    @Test
    void singleSpillsAndGivesWhatTwoPhaseGives() throws IOException {
        List<String> keys = List.of("k_long", "k_str");
        HashAggregateExec plan = single(new MemoryScanExec(SCHEMA, List.of(ROWS)), keys, AGGREGATES);
        InMemory oracle = inMemory(plan);
        assertThat(oracle.rows()).isEqualTo(inMemory(new States(keys).twoPartitionFinal()).rows());
        MemoryPool pool = new MemoryPool(oracle.peak() / 4);
        try (TestingContext testing = new TestingContext(pool, new ExecutionConfig(settings(true)))) {
            HashAggregateExec spilling = single(new MemoryScanExec(SCHEMA, List.of(ROWS)), keys, AGGREGATES);
            assertThat(sorted(testing.rows(spilling))).isEqualTo(oracle.rows());
            assertThat(spilling.metrics().partition(0).counters().get(SpillMetrics.SPILL_COUNT)).isPositive();
        }
        assertThat(filesUnder(spillDirectory)).isEmpty();
    }

    @Test
    void aSpilledPartitionThatDoesNotFitIsRepartitioned() throws IOException {
        States states = new States(List.of("k_long", "k_str"));
        InMemory oracle = inMemory(states.twoPartitionFinal());
        // each spill partition of the first level holds 1/16 of a partition's groups: more than its share of this pool
        MemoryPool pool = new MemoryPool(oracle.peak() / 32);
        try (TestingContext testing = new TestingContext(pool, new ExecutionConfig(settings(true).with(EngineSettings.BATCH_SIZE, 128)))) {
            HashAggregateExec spilling = states.twoPartitionFinal();
            assertThat(sorted(testing.rows(spilling))).isEqualTo(oracle.rows());
            assertThat(spilling.metrics().partition(0).counters().get(AggregateSpiller.SPILL_LEVELS)).isGreaterThan(1L);
        }
        assertThat(filesUnder(spillDirectory)).isEmpty();
    }

    @Test
    void aSingleGroupTooLargeFailsSayingSpillingCannotHelp() throws IOException {
        // one group whose MAX is a string larger than the pool: no partitioning makes it fit
        Schema schema = new Schema(List.of(QuiverTypes.field("k", QuiverTypes.INT64, false), QuiverTypes.field("s", QuiverTypes.UTF8, false)));
        List<List<Object>> rows = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            rows.add(List.of(1L, String.valueOf((char) ('a' + i)).repeat(100_000)));
        }
        List<AggregateExpr> maxOfS = List.of(agg(MAX, col(schema, "s"), "max_s", QuiverTypes.UTF8));
        try (TestingContext testing = new TestingContext(new MemoryPool(64 * 1024), new ExecutionConfig(settings(true).with(EngineSettings.BATCH_SIZE, 2)))) {
            assertThatThrownBy(() -> testing.rows(single(new MemoryScanExec(schema, List.of(rows)), List.of("k"), maxOfS)))
                    .isInstanceOfSatisfying(ResourcesExhaustedException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.EXCEEDED_MEMORY_LIMIT))
                    .hasMessageContaining("HashAggregateExec[mode=SINGLE, partition=0]")
                    .hasMessageContaining("spilling cannot help: the state of a single group still does not fit");
            assertThat(testing.pool().used()).isZero();
        }
        assertThat(filesUnder(spillDirectory)).isEmpty();
    }

    @Test
    void failsWhenSpillingIsDisabled() throws IOException {
        States states = new States(List.of("k_long", "k_str"));
        InMemory oracle = inMemory(states.twoPartitionFinal());
        try (TestingContext testing = new TestingContext(new MemoryPool(oracle.peak() / 4), new ExecutionConfig(settings(false)))) {
            assertThatThrownBy(() -> testing.rows(states.twoPartitionFinal()))
                    .isInstanceOfSatisfying(ResourcesExhaustedException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.EXCEEDED_MEMORY_LIMIT))
                    .hasMessageMatching("(?s).*HashAggregateExec\\[mode=FINAL, partition=[01]\\].*")
                    .hasMessageContaining("spilling is disabled (spill_enabled = false)");
            assertThat(testing.pool().used()).isZero();
        }
        assertThat(filesUnder(spillDirectory)).isEmpty();
    }

    @Test
    void aDistinctAggregateFailsSayingItCannotSpill() {
        List<AggregateExpr> aggregates = List.of(distinct(COUNT, col(SCHEMA, "v_long"), "distinct_v", QuiverTypes.INT64));
        try (TestingContext testing = new TestingContext(new MemoryPool(64 * 1024), new ExecutionConfig(settings(true)))) {
            assertThatThrownBy(() -> testing.rows(single(new MemoryScanExec(SCHEMA, List.of(ROWS)), List.of("k_long", "k_str"), aggregates)))
                    .isInstanceOfSatisfying(ResourcesExhaustedException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.EXCEEDED_MEMORY_LIMIT))
                    .hasMessageContaining("spilling is not supported for COUNT(DISTINCT");
            assertThat(testing.pool().used()).isZero();
        }
    }

    @Test
    void closingEarlyDeletesTheSpillFiles() throws IOException {
        States states = new States(List.of("k_long", "k_str"));
        HashAggregateExec oneFinal = finalOver(states.partial, states.rows);
        InMemory oracle = inMemory(oneFinal);
        try (TestingContext testing = new TestingContext(new MemoryPool(oracle.peak() / 4), new ExecutionConfig(settings(true)))) {
            HashAggregateExec spilling = finalOver(states.partial, states.rows);
            // as under a LIMIT: the first batch, then close
            try (BatchStream stream = spilling.execute(0, testing.context())) {
                VectorSchemaRoot first = stream.next();
                assertThat(first).isNotNull();
                first.close();
                assertThat(filesUnder(spillDirectory)).isNotEmpty();
            }
            assertThat(spilling.metrics().partition(0).counters().get(SpillMetrics.SPILL_COUNT)).isPositive();
            assertThat(testing.pool().used()).isZero();
            // the stream deleted its files itself, before the execution's spill directory closed
            assertThat(filesUnder(spillDirectory).stream().filter(Files::isRegularFile)).isEmpty();
        }
        assertThat(filesUnder(spillDirectory)).isEmpty();
    }

    @Test
    void aQueryCancelledWhileSpillingLeavesNoFiles() throws IOException {
        States states = new States(List.of("k_long", "k_str"));
        InMemory oracle = inMemory(finalOver(states.partial, states.rows));
        try (BufferAllocator allocator = new RootAllocator(); QuiverExecutor executor = new QuiverExecutor("agg-spill-cancel")) {
            MemoryPool pool = new MemoryPool(oracle.peak() / 4);
            TaskContext context = new TaskContext("cancelled", allocator, pool, executor, new ExecutionConfig(settings(true)));
            MemoryScanExec stateRows = new MemoryScanExec(states.partial.schema(), List.of(states.rows));
            HashAggregateExec spilling = new HashAggregateExec(AggregateMode.FINAL, finalOver(states.partial, states.rows).groupExprs(),
                    states.partial.groupNames(), AGGREGATES, new CancelOnceSpilled(stateRows, spillDirectory));
            try {
                assertThatThrownBy(() -> PlanExecutor.collectRows(spilling, context))
                        .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.QUERY_CANCELLED));
                assertThat(spilling.metrics().partition(0).counters().get(SpillMetrics.SPILL_COUNT)).isPositive();
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
        States states = new States(List.of("k_long", "k_str"));
        InMemory oracle = inMemory(states.twoPartitionFinal());
        try (BufferAllocator allocator = new RootAllocator(); QuiverExecutor executor = new QuiverExecutor("agg-spill-full")) {
            MemoryPool pool = new MemoryPool(oracle.peak() / 4);
            TaskContext context = new TaskContext("full", allocator, pool, executor, new ExecutionConfig(settings(true)),
                    Map.of(SpillDirectory.FileOpener.class, full));
            try {
                assertThatThrownBy(() -> PlanExecutor.collectRows(states.twoPartitionFinal(), context))
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

    /** Rows in a total order (NULLs first), so that two results compare as lists. */
    private static List<List<Object>> sorted(List<List<Object>> rows) {
        List<List<Object>> copy = new ArrayList<>(rows);
        copy.sort(HashAggregateSpillTest::compareRows);
        return copy;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static int compareRows(List<Object> a, List<Object> b) {
        for (int i = 0; i < a.size(); i++) {
            Object x = a.get(i);
            Object y = b.get(i);
            int c = x == null || y == null ? Boolean.compare(x != null, y != null) : ((Comparable) comparable(x)).compareTo(comparable(y));
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    private static Object comparable(Object value) {
        return value instanceof Comparable<?> ? value : Objects.toString(value);
    }

    private static List<Path> filesUnder(Path directory) throws IOException {
        try (Stream<Path> walk = Files.walk(directory)) {
            return walk.filter(path -> !path.equals(directory)).sorted(Comparator.reverseOrder()).toList();
        }
    }
}
