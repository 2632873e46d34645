package dev.quiver.engine.operator.sort;

import static dev.quiver.engine.operator.sort.SortTestData.SCHEMA;
import static dev.quiver.engine.operator.sort.SortTestData.key;
import static dev.quiver.engine.operator.sort.SortTestData.sorted;
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
import dev.quiver.engine.execution.PlanExecutor;
import dev.quiver.engine.execution.QuiverExecutor;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.compression.IpcCompression;
import dev.quiver.engine.memory.MemoryPool;
import dev.quiver.engine.operator.exchange.SortPreservingMergeExec;
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
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/** External sort: with a pool too small for the input, the sort spills sorted runs and merges them; the oracle is a Java sort. */
class SortSpillTest {
    private static final List<List<Object>> ROWS = SortTestData.rows(6000, 7);
    /** The unique id last makes the order total, so whole rows can be compared. */
    private static final List<SortKey> KEYS = List.of(key(5, true, false), key(2, false, true), key(8, true, true));

    @TempDir
    Path spillDirectory;

    private Settings settings(int batchSize, boolean spill) {
        return EngineSettings.REGISTRY.defaults().with(EngineSettings.BATCH_SIZE, batchSize).with(EngineSettings.TARGET_PARTITIONS, 2)
                .with(EngineSettings.SPILL_DIRECTORY, spillDirectory.toString()).with(EngineSettings.SPILL_ENABLED, spill);
    }

    /** The peak the sort reserves when the pool is unlimited. */
    private long inMemoryPeak(int batchSize) {
        try (TestingContext testing = new TestingContext(MemoryPool.unlimited(), new ExecutionConfig(settings(batchSize, true)))) {
            SortExec sort = new SortExec(new MemoryScanExec(SCHEMA, List.of(ROWS)), KEYS, OptionalLong.empty(), false);
            assertThat(testing.rows(sort)).isEqualTo(sorted(ROWS, KEYS));
            assertThat(sort.metrics().partition(0).counters()).doesNotContainKey(SpillMetrics.SPILL_COUNT);
            return sort.metrics().partition(0).peakMemoryBytes();
        }
    }

    @ParameterizedTest
    @EnumSource(IpcCompression.class)
    void sortsWithAQuarterOfTheMemoryItNeeds(IpcCompression compression) throws IOException {
        long peak = inMemoryPeak(200);
        MemoryPool pool = new MemoryPool(peak / 4);
        Settings settings = settings(200, true).with(EngineSettings.SPILL_COMPRESSION, compression);
        try (TestingContext testing = new TestingContext(pool, new ExecutionConfig(settings))) {
            SortExec sort = new SortExec(new MemoryScanExec(SCHEMA, List.of(ROWS)), KEYS, OptionalLong.empty(), false);
            assertThat(testing.rows(sort)).isEqualTo(sorted(ROWS, KEYS));
            Map<String, Long> counters = sort.metrics().partition(0).counters();
            assertThat(counters.get(SpillMetrics.SPILL_COUNT)).isBetween(4L, (long) SortExec.MAX_MERGE_FAN_IN);
            assertThat(counters.get(SpillMetrics.SPILLED_ROWS)).isEqualTo(ROWS.size());
            assertThat(counters.get(SpillMetrics.SPILLED_BYTES)).isPositive();
            assertThat(pool.used()).isZero();
        }
        assertThat(filesUnder(spillDirectory)).isEmpty();
    }

    @Test
    void mergesManyRunsInSeveralPasses() throws IOException {
        long peak = inMemoryPeak(50);
        try (TestingContext testing = new TestingContext(new MemoryPool(peak / 60), new ExecutionConfig(settings(50, true)))) {
            SortExec sort = new SortExec(new MemoryScanExec(SCHEMA, List.of(ROWS)), KEYS, OptionalLong.empty(), false);
            assertThat(testing.rows(sort)).isEqualTo(sorted(ROWS, KEYS));
            // more runs than one merge can hold a batch of each of: merged runs are spilled again
            assertThat(sort.metrics().partition(0).counters().get(SpillMetrics.SPILL_COUNT)).isGreaterThan(SortExec.MAX_MERGE_FAN_IN);
        }
        assertThat(filesUnder(spillDirectory)).isEmpty();
    }

    @Test
    void keepsEqualKeysInInputOrderAcrossRuns() {
        // one key with few values: the rows of one value span many runs and must stay in id order
        List<SortKey> bySmallInt = List.of(key(0, true, true));
        long peak;
        try (TestingContext testing = new TestingContext(MemoryPool.unlimited(), new ExecutionConfig(settings(100, true)))) {
            SortExec sort = new SortExec(new MemoryScanExec(SCHEMA, List.of(ROWS)), bySmallInt, OptionalLong.empty(), false);
            testing.rows(sort);
            peak = sort.metrics().partition(0).peakMemoryBytes();
        }
        try (TestingContext testing = new TestingContext(new MemoryPool(peak / 5), new ExecutionConfig(settings(100, true)))) {
            SortExec sort = new SortExec(new MemoryScanExec(SCHEMA, List.of(ROWS)), bySmallInt, OptionalLong.empty(), false);
            List<List<Object>> result = testing.rows(sort);
            assertThat(sort.metrics().partition(0).counters().get(SpillMetrics.SPILL_COUNT)).isGreaterThan(1);
            // List.sort is stable: equal keys keep their input (id) order
            assertThat(result).isEqualTo(sorted(ROWS, bySmallInt));
        }
    }

    /** Both partitions collect at once, each within its share of the pool; smaller batches make more runs to merge. */
    @ParameterizedTest(name = "batch of {0} rows, a pool of 1/{1} of the in-memory peak")
    @CsvSource({"200, 4", "50, 4", "50, 6", "50, 8", "50, 12"})
    void spillsEachPartitionBelowAMerge(int batchSize, int fraction) throws IOException {
        List<List<Object>> half1 = ROWS.subList(0, ROWS.size() / 2);
        List<List<Object>> half2 = ROWS.subList(ROWS.size() / 2, ROWS.size());
        long peak = inMemoryPeak(batchSize);
        try (TestingContext testing = new TestingContext(new MemoryPool(peak / fraction), new ExecutionConfig(settings(batchSize, true)))) {
            SortExec sort = new SortExec(new MemoryScanExec(SCHEMA, List.of(half1, half2)), KEYS, OptionalLong.empty(), true);
            List<List<Object>> result = testing.rows(new SortPreservingMergeExec(sort, KEYS, OptionalLong.empty()));
            assertThat(result).isEqualTo(sorted(ROWS, KEYS));
            assertThat(sort.metrics().partition(0).counters()).containsKey(SpillMetrics.SPILL_COUNT);
            assertThat(sort.metrics().partition(1).counters()).containsKey(SpillMetrics.SPILL_COUNT);
            assertThat(testing.pool().used()).isZero();
        }
        assertThat(filesUnder(spillDirectory)).isEmpty();
    }

    @Test
    void failsWhenSpillingIsDisabled() {
        long peak = inMemoryPeak(200);
        try (TestingContext testing = new TestingContext(new MemoryPool(peak / 4), new ExecutionConfig(settings(200, false)))) {
            assertThatThrownBy(() -> testing.rows(new SortExec(new MemoryScanExec(SCHEMA, List.of(ROWS)), KEYS, OptionalLong.empty(), false)))
                    .isInstanceOfSatisfying(ResourcesExhaustedException.class, e -> assertThat(e.consumer()).isEqualTo("SortExec[partition=0]"));
            assertThat(testing.pool().used()).isZero();
        }
    }

    @Test
    void aBatchLargerThanThePoolFailsSayingSpillingCannotHelp() throws IOException {
        try (TestingContext testing = new TestingContext(new MemoryPool(4096), new ExecutionConfig(settings(1000, true)))) {
            assertThatThrownBy(() -> testing.rows(new SortExec(new MemoryScanExec(SCHEMA, List.of(ROWS)), KEYS, OptionalLong.empty(), false)))
                    .isInstanceOfSatisfying(ResourcesExhaustedException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.EXCEEDED_MEMORY_LIMIT))
                    .hasMessageContaining("SortExec[partition=0]")
                    .hasMessageContaining("spilling cannot help: one input batch of 1000 rows");
            assertThat(testing.pool().used()).isZero();
        }
        assertThat(filesUnder(spillDirectory)).isEmpty();
    }

    @Test
    void aQueryCancelledWhileSpillingLeavesNoFiles() throws IOException {
        long peak = inMemoryPeak(200);
        try (BufferAllocator allocator = new RootAllocator(); QuiverExecutor executor = new QuiverExecutor("spill-cancel")) {
            MemoryPool pool = new MemoryPool(peak / 4);
            TaskContext context = new TaskContext("cancelled", allocator, pool, executor, new ExecutionConfig(settings(200, true)));
            // the input cancels the query once the sort has a spill file on disk, and goes on producing
            ExecutionPlan input = new CancelOnceFilesExist(new MemoryScanExec(SCHEMA, List.of(ROWS)), spillDirectory);
            SortExec sort = new SortExec(input, KEYS, OptionalLong.empty(), false);
            try {
                assertThatThrownBy(() -> PlanExecutor.collectRows(sort, context))
                        .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.QUERY_CANCELLED));
                assertThat(sort.metrics().partition(0).counters().get(SpillMetrics.SPILL_COUNT)).isPositive();
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
        // every spill file's writes go to /dev/full: the kernel's "No space left on device"
        SpillDirectory.FileOpener full = path -> {
            Files.createFile(path);
            return FileChannel.open(devFull, StandardOpenOption.WRITE);
        };
        long peak = inMemoryPeak(200);
        try (BufferAllocator allocator = new RootAllocator(); QuiverExecutor executor = new QuiverExecutor("spill-full")) {
            MemoryPool pool = new MemoryPool(peak / 4);
            TaskContext context = new TaskContext("full", allocator, pool, executor, new ExecutionConfig(settings(200, true)),
                    Map.of(SpillDirectory.FileOpener.class, full));
            try {
                assertThatThrownBy(() -> PlanExecutor.collectRows(new SortExec(new MemoryScanExec(SCHEMA, List.of(ROWS)), KEYS, OptionalLong.empty(), false), context))
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
    void anUnwritableSpillDirectoryFailsNamingIt() throws IOException {
        Path notADirectory = Files.writeString(spillDirectory.resolve("a-file"), "x");
        long peak = inMemoryPeak(200);
        Settings settings = settings(200, true).with(EngineSettings.SPILL_DIRECTORY, notADirectory.toString());
        try (TestingContext testing = new TestingContext(new MemoryPool(peak / 4), new ExecutionConfig(settings))) {
            assertThatThrownBy(() -> testing.rows(new SortExec(new MemoryScanExec(SCHEMA, List.of(ROWS)), KEYS, OptionalLong.empty(), false)))
                    .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.SPILL_FAILED))
                    .hasMessageContaining("Could not create the spill directory " + notADirectory)
                    .hasMessageContaining("spill_directory=" + notADirectory);
        }
    }
}
