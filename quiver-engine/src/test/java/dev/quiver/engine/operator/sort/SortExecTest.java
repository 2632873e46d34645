package dev.quiver.engine.operator.sort;

import static dev.quiver.engine.operator.sort.SortTestData.SCHEMA;
import static dev.quiver.engine.operator.sort.SortTestData.byId;
import static dev.quiver.engine.operator.sort.SortTestData.key;
import static dev.quiver.engine.operator.sort.SortTestData.keyColumns;
import static dev.quiver.engine.operator.sort.SortTestData.sorted;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.config.EngineSettings;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.ResourcesExhaustedException;
import dev.quiver.engine.execution.ExecutionConfig;
import dev.quiver.engine.memory.MemoryPool;
import dev.quiver.engine.operator.GeneratedExec;
import dev.quiver.engine.operator.PartitionRunner;
import dev.quiver.engine.operator.exchange.SortPreservingMergeExec;
import dev.quiver.engine.source.memory.MemoryScanExec;
import dev.quiver.engine.testing.TestingContext;
import dev.quiver.engine.types.QuiverTypes;
import dev.quiver.engine.expr.ColumnExpr;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class SortExecTest {
    private static final List<List<Object>> ROWS = SortTestData.rows(3000, 42);

    private static TestingContext testing(int batchSize) {
        return new TestingContext(MemoryPool.unlimited(), new ExecutionConfig(batchSize, 2));
    }

    private static void assertSorted(List<List<Object>> actual, List<List<Object>> input, List<SortKey> keys, int limit) {
        List<List<Object>> expected = sorted(input, keys);
        expected = expected.subList(0, Math.min(limit, expected.size()));
        assertThat(keyColumns(actual, keys)).isEqualTo(keyColumns(expected, keys));
        if (limit >= input.size()) {
            assertThat(byId(actual)).isEqualTo(byId(input));
        }
    }

    @ParameterizedTest
    @CsvSource({
            "0,true,true", "0,true,false", "0,false,true", "0,false,false",
            "1,true,true", "1,false,false", "2,true,false", "2,false,true",
            "3,true,true", "3,false,false", "4,true,false", "4,false,true",
            "5,true,true", "5,false,false", "5,true,false", "6,true,true", "6,false,false",
            "7,true,false", "7,false,true", "8,false,true"})
    void sortsEveryTypeInEveryDirection(int column, boolean ascending, boolean nullsFirst) {
        List<SortKey> keys = List.of(key(column, ascending, nullsFirst));
        try (TestingContext testing = testing(100)) {
            SortExec sort = new SortExec(new MemoryScanExec(SCHEMA, List.of(ROWS)), keys, OptionalLong.empty(), false);
            assertSorted(testing.rows(sort), ROWS, keys, Integer.MAX_VALUE);
            assertThat(sort.metrics().partition(0).peakMemoryBytes()).isPositive();
        }
    }

    @Test
    void sortsByManyKeys() {
        List<SortKey> keys = List.of(key(7, true, false), key(5, false, true), key(0, true, true), key(3, false, false), key(8, true, true));
        try (TestingContext testing = testing(64)) {
            List<List<Object>> result = testing.rows(new SortExec(new MemoryScanExec(SCHEMA, List.of(ROWS)), keys, OptionalLong.empty(), false));
            // the unique id as last key makes the order total: compare whole rows
            assertThat(result).isEqualTo(sorted(ROWS, keys));
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 7, 99, 100, 101, 250, 2999, 3000, 5000})
    void topKEqualsSortThenLimit(int k) {
        List<SortKey> keys = List.of(key(2, false, false), key(8, true, true));
        try (TestingContext testing = testing(100)) {
            List<List<Object>> result = testing.rows(new SortExec(new MemoryScanExec(SCHEMA, List.of(ROWS)), keys, OptionalLong.of(k), false));
            List<List<Object>> expected = sorted(ROWS, keys);
            assertThat(result).isEqualTo(expected.subList(0, Math.min(k, expected.size())));
        }
    }

    @Test
    void preservePartitioningSortsEachPartition() {
        List<SortKey> keys = List.of(key(5, true, true), key(8, false, true));
        MemoryScanExec scan = MemoryScanExec.split(SCHEMA, ROWS, 3);
        try (TestingContext testing = testing(100)) {
            SortExec sort = new SortExec(scan, keys, OptionalLong.empty(), true);
            List<List<List<Object>>> partitions = PartitionRunner.rowsPerPartition(sort, testing.context());
            testing.reset();
            assertThat(partitions).hasSize(3);
            for (int p = 0; p < 3; p++) {
                assertThat(partitions.get(p)).isEqualTo(sorted(scan.partitions().get(p), keys));
            }
        }
    }

    @Test
    void sortsByAComputedKey() {
        // ORDER BY -l ASC is ORDER BY l DESC; the evaluated key vectors are owned and released by the sort
        SortKey negated = new SortKey(new dev.quiver.engine.expr.NegateExpr(key(1, true, true).expr()), true, true);
        List<SortKey> oracle = List.of(key(1, false, true));
        try (TestingContext testing = testing(100)) {
            List<List<Object>> result = testing.rows(new SortExec(new MemoryScanExec(SCHEMA, List.of(ROWS)), List.of(negated),
                    OptionalLong.of(500), false));
            assertThat(keyColumns(result, oracle)).isEqualTo(keyColumns(sorted(ROWS, oracle).subList(0, 500), oracle));
        }
    }

    @Test
    void emptyInputSortsToNothing() {
        try (TestingContext testing = testing(100)) {
            assertThat(testing.rows(new SortExec(new MemoryScanExec(SCHEMA, List.of(List.of())), List.of(key(0, true, true)),
                    OptionalLong.empty(), false))).isEmpty();
        }
    }

    @Test
    void fullSortWithoutSpillingFailsWhenThePoolSaysNoButTopKFits() {
        GeneratedExec big = GeneratedExec.finite(1, 1000, 100);
        List<SortKey> keys = List.of(new SortKey(new ColumnExpr(0, "v", QuiverTypes.INT64, false), false, false));
        ExecutionConfig noSpilling = new ExecutionConfig(EngineSettings.REGISTRY.defaults().with(EngineSettings.BATCH_SIZE, 1000)
                .with(EngineSettings.SPILL_ENABLED, false));
        try (TestingContext testing = new TestingContext(new MemoryPool(256 * 1024), noSpilling)) {
            assertThatThrownBy(() -> testing.rows(new SortExec(big, keys, OptionalLong.empty(), false)))
                    .isInstanceOfSatisfying(ResourcesExhaustedException.class, e -> {
                        assertThat(e.errorCode()).isEqualTo(ErrorCode.EXCEEDED_MEMORY_LIMIT);
                        assertThat(e.consumer()).isEqualTo("SortExec[partition=0]");
                    });
            List<List<Object>> top = testing.rows(new SortExec(big, keys, OptionalLong.of(10), false));
            List<List<Object>> expected = new ArrayList<>();
            for (long v = 99_999; v > 99_989; v--) {
                expected.add(List.of(v));
            }
            assertThat(top).isEqualTo(expected);
        }
    }

    @Test
    void mergeOfSortedPartitionsIsSorted() {
        List<SortKey> keys = List.of(key(6, false, true), key(4, true, false), key(8, true, true));
        MemoryScanExec scan = MemoryScanExec.split(SCHEMA, ROWS, 4);
        try (TestingContext testing = testing(128)) {
            var merge = new SortPreservingMergeExec(new SortExec(scan, keys, OptionalLong.empty(), true), keys, OptionalLong.empty());
            assertThat(testing.rows(merge)).isEqualTo(sorted(ROWS, keys));
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 127, 128, 129, 1000, 4000})
    void mergeHonoursFetch(int fetch) {
        List<SortKey> keys = List.of(key(1, true, false), key(8, true, true));
        MemoryScanExec scan = MemoryScanExec.split(SCHEMA, ROWS, 3);
        try (TestingContext testing = testing(128)) {
            var merge = new SortPreservingMergeExec(new SortExec(scan, keys, OptionalLong.of(fetch), true), keys, OptionalLong.of(fetch));
            List<List<Object>> expected = sorted(ROWS, keys);
            assertThat(testing.rows(merge)).isEqualTo(expected.subList(0, Math.min(fetch, expected.size())));
        }
    }

    @Test
    void mergeClosedEarlyStopsItsInputsAndLeaksNothing() {
        GeneratedExec input = GeneratedExec.infinite(3, 50);
        List<SortKey> keys = List.of(new SortKey(new ColumnExpr(0, "v", QuiverTypes.INT64, false), true, true));
        try (TestingContext testing = testing(50)) {
            var stream = new SortPreservingMergeExec(input, keys, OptionalLong.empty()).execute(0, testing.context());
            List<Object> values = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                try (var batch = stream.next()) {
                    dev.quiver.engine.batch.Batches.toRows(batch).forEach(row -> values.add(row.get(0)));
                }
            }
            stream.close();
            assertThat(values).hasSize(150).isSortedAccordingTo((a, b) -> Long.compare((Long) a, (Long) b));
            assertThat(values.get(0)).isEqualTo(0L);
            assertThat(input.closed.get()).isEqualTo(3);
        }
    }

    @Test
    void mergeReportsInputFailureWithItsCode() {
        GeneratedExec input = GeneratedExec.failing(3, 50, 2, ErrorCode.DIVISION_BY_ZERO);
        List<SortKey> keys = List.of(new SortKey(new ColumnExpr(0, "v", QuiverTypes.INT64, false), true, true));
        try (TestingContext testing = testing(50)) {
            assertThatThrownBy(() -> testing.rows(new SortPreservingMergeExec(input, keys, OptionalLong.empty())))
                    .isInstanceOfSatisfying(dev.quiver.engine.error.QuiverException.class,
                            e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.DIVISION_BY_ZERO));
            assertThat(input.closed.get()).isEqualTo(3);
        }
    }
}
