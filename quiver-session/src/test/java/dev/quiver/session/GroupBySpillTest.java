package dev.quiver.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.ResourcesExhaustedException;
import dev.quiver.engine.execution.PlanTree;
import dev.quiver.engine.operator.aggregate.HashAggregateExec;
import dev.quiver.engine.spill.SpillMetrics;
import dev.quiver.engine.types.QuiverTypes;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A GROUP BY with a quarter of the memory it takes in memory spills and gives the in-memory
 * result: one partition (a SINGLE aggregate) and two (PARTIAL, repartition, FINAL).
 */
class GroupBySpillTest {
    private static final int ROWS = 60_000;
    private static final String QUERY = "SELECT k, s, count(*), count(v), sum(v), min(v), max(d), avg(v), sum(d), max(s) FROM t GROUP BY k, s";

    @TempDir
    Path spillDirectory;

    @ParameterizedTest(name = "target_partitions={0}")
    @ValueSource(ints = {1, 2})
    void aGroupByOverTheMemoryLimitSpillsAndGivesTheInMemoryResult(int partitions) throws IOException {
        List<List<Object>> expected;
        long peak;
        try (QuerySession session = session(partitions)) {
            expected = sorted(session.executeScript(QUERY).rows());
            peak = session.memoryPool().peak();
        }
        assertThat(expected.size()).isGreaterThan(10_000);
        try (QuerySession session = session(partitions)) {
            session.executeScript("SET memory_limit = '" + peak / 4 + "'");
            session.executeScript("SET spill_directory = '" + spillDirectory + "'");
            try (QueryHandle handle = session.execute(QUERY)) {
                assertThat(sorted(handle.collect().rows())).isEqualTo(expected);
                long spills = PlanTree.nodesOf(handle.plan(), HashAggregateExec.class).stream()
                        .mapToLong(aggregate -> aggregate.metrics().counters().getOrDefault(SpillMetrics.SPILL_COUNT, 0L)).sum();
                assertThat(spills).as("times the aggregate spilled").isPositive();
            }
            assertThat(session.memoryPool().used()).isZero();
            assertThat(filesUnder(spillDirectory)).isEmpty();

            session.executeScript("SET spill_enabled = false");
            assertThatThrownBy(() -> session.executeScript(QUERY))
                    .isInstanceOfSatisfying(ResourcesExhaustedException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.EXCEEDED_MEMORY_LIMIT))
                    .hasMessageContaining("spilling is disabled (spill_enabled = false)");
            assertThat(session.memoryPool().used()).isZero();
        }
    }

    private static QuerySession session(int partitions) {
        return QuerySession.builder().catalog(catalog()).targetPartitions(partitions).batchSize(1024).build();
    }

    /** About 20,000 groups of a BIGINT and a VARCHAR key, both with NULLs. */
    private static MemoryCatalog catalog() {
        Schema schema = new Schema(List.of(
                QuiverTypes.field("k", QuiverTypes.INT64, true),
                QuiverTypes.field("s", QuiverTypes.UTF8, true),
                QuiverTypes.field("v", QuiverTypes.INT64, true),
                QuiverTypes.field("d", QuiverTypes.decimal(12, 2), true)));
        List<List<Object>> rows = new ArrayList<>(ROWS);
        for (int i = 0; i < ROWS; i++) {
            rows.add(Arrays.asList(i % 31 == 0 ? null : (long) (i % 4001), i % 23 == 0 ? null : "key-" + i % 5,
                    i % 7 == 0 ? null : (long) i * 3 - 1000, i % 9 == 0 ? null : BigDecimal.valueOf(i * 17L, 2)));
        }
        return new MemoryCatalog().add("t", schema, rows);
    }

    /** The rows in one order, NULLs first, so that two results compare as lists. */
    private static List<List<Object>> sorted(List<List<Object>> rows) {
        List<List<Object>> copy = new ArrayList<>(rows);
        copy.sort((a, b) -> {
            for (int i = 0; i < a.size(); i++) {
                int c = compare(a.get(i), b.get(i));
                if (c != 0) {
                    return c;
                }
            }
            return 0;
        });
        return copy;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static int compare(Object x, Object y) {
        if (x == null || y == null) {
            return Boolean.compare(x != null, y != null);
        }
        return x instanceof Comparable comparable ? comparable.compareTo(y) : x.toString().compareTo(y.toString());
    }

    private static List<Path> filesUnder(Path directory) throws IOException {
        try (Stream<Path> walk = Files.walk(directory)) {
            return walk.filter(path -> !path.equals(directory)).toList();
        }
    }
}
