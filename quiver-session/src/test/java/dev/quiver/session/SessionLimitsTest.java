package dev.quiver.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.error.ResourcesExhaustedException;
import dev.quiver.engine.types.QuiverTypes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Memory limits and failing queries: the query fails with a clear error, the session lives on. */
class SessionLimitsTest {
    private static final int ROWS = 20_000;

    /** Without spilling (GroupBySpillTest covers it), a GROUP BY over the limit fails. */
    @Test
    void groupByOverTheMemoryLimitFailsAndTheSessionRecovers() {
        try (QuerySession session = QuerySession.builder().catalog(bigCatalog()).targetPartitions(2).batchSize(1024).build()) {
            session.executeScript("SET memory_limit = '64KiB'");
            session.executeScript("SET spill_enabled = false");
            assertThatThrownBy(() -> session.executeScript("select k, count(*), max(s) from big group by k"))
                    .isInstanceOfSatisfying(ResourcesExhaustedException.class, e -> {
                        assertThat(e.errorCode()).isEqualTo(ErrorCode.EXCEEDED_MEMORY_LIMIT);
                        assertThat(e.consumer()).contains("HashAggregateExec");
                    })
                    .hasMessageContaining("HashAggregateExec")
                    .hasMessageContaining("spilling is disabled (spill_enabled = false)");
            assertThat(session.memoryPool().used()).isZero();

            QueryResult small = session.executeScript("select count(*) from big");
            assertThat(small.rows()).containsExactly(List.of((long) ROWS));

            session.executeScript("SET memory_limit = 'unlimited'");
            assertThat(session.executeScript("select k, count(*) from big group by k").rows()).hasSize(ROWS / 2);
            assertThat(session.memoryPool().used()).isZero();
        }
    }

    @Test
    void collectLeftJoinBuildSideOverTheMemoryLimitFailsSayingHowToPartitionIt() {
        // 20,000 build rows are under hash_join_collect_left_max_rows: the planner collects the left side, which cannot spill
        try (QuerySession session = QuerySession.builder().catalog(bigCatalog()).targetPartitions(2).memoryLimit(32 * 1024).build()) {
            assertThatThrownBy(() -> session.executeScript("select a.k from big a join big b on a.k = b.k"))
                    .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.EXCEEDED_MEMORY_LIMIT))
                    .hasMessageContaining("HashJoinExec[build, collect_left]")
                    .hasMessageContaining("hash_join_collect_left_max_rows");
            assertThat(session.memoryPool().used()).isZero();
            assertThat(session.executeScript("select count(*) from big").rows()).containsExactly(List.of((long) ROWS));
        }
    }

    @Test
    void partitionedJoinBuildSideOverTheMemoryLimitFailsWhenSpillingIsDisabled() {
        try (QuerySession session = QuerySession.builder().catalog(bigCatalog()).targetPartitions(2).memoryLimit(32 * 1024).build()) {
            session.executeScript("SET hash_join_collect_left_max_rows = 0; SET spill_enabled = false");
            assertThatThrownBy(() -> session.executeScript("select a.k from big a join big b on a.k = b.k"))
                    .isInstanceOfSatisfying(ResourcesExhaustedException.class, e -> {
                        assertThat(e.errorCode()).isEqualTo(ErrorCode.EXCEEDED_MEMORY_LIMIT);
                        assertThat(e.consumer()).startsWith("HashJoinExec[build, partition=");
                    });
            assertThat(session.memoryPool().used()).isZero();
            assertThat(session.executeScript("select count(*) from big").rows()).containsExactly(List.of((long) ROWS));
        }
    }

    @Test
    void partitionedJoinOverTheMemoryLimitSpillsAndMatchesTheUnlimitedRun(@TempDir Path spillDirectory) throws IOException {
        String query = "select a.k, a.s, b.s from big a left join big b on a.k = b.k and a.s < b.s";
        List<String> expected;
        long peak;
        try (QuerySession session = QuerySession.builder().catalog(bigCatalog()).targetPartitions(2).batchSize(1024).build()) {
            session.executeScript("SET hash_join_collect_left_max_rows = 0");
            expected = sortedRows(session.executeScript(query).rows());
            peak = session.memoryPool().peak();
        }
        try (QuerySession session = QuerySession.builder().catalog(bigCatalog()).targetPartitions(2).batchSize(1024).memoryLimit(peak / 4).build()) {
            session.executeScript("SET hash_join_collect_left_max_rows = 0; SET spill_directory = '" + spillDirectory + "'");
            assertThat(sortedRows(session.executeScript(query).rows())).isEqualTo(expected);
            assertThat(session.memoryPool().used()).isZero();
            String analyzed = session.executeScript("EXPLAIN ANALYZE " + query).rows().toString();
            assertThat(analyzed).contains("spill_count=");
        }
        try (Stream<Path> left = Files.list(spillDirectory)) {
            assertThat(left).isEmpty();
        }
    }

    private static List<String> sortedRows(List<List<Object>> rows) {
        return rows.stream().map(Object::toString).sorted().toList();
    }

    @Test
    void closingARunningQueryEarlyReleasesEverything() {
        try (QuerySession session = QuerySession.builder().catalog(bigCatalog()).targetPartitions(3).batchSize(256).build()) {
            session.executeScript("SET hash_join_collect_left_max_rows = 0");
            for (int i = 0; i < 3; i++) {
                try (QueryHandle handle = session.execute("select a.k, b.s from big a join big b on a.k = b.k order by a.k")) {
                    try (org.apache.arrow.vector.VectorSchemaRoot first = handle.stream().next()) {
                        assertThat(first.getRowCount()).isPositive();
                    }
                }
                assertThat(session.memoryPool().used()).isZero();
            }
        }
    }

    private static MemoryCatalog bigCatalog() {
        Schema schema = new Schema(List.of(
                QuiverTypes.field("k", QuiverTypes.INT64, false),
                QuiverTypes.field("s", QuiverTypes.UTF8, false)));
        List<List<Object>> rows = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            rows.add(List.of((long) (i % (ROWS / 2)), "value-" + i));
        }
        return new MemoryCatalog().add("big", schema, rows);
    }
}
