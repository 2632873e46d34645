package dev.quiver.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.engine.batch.VectorValues;
import dev.quiver.engine.config.EngineSettings;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.PlanTree;
import dev.quiver.engine.operator.aggregate.HashAggregateExec;
import dev.quiver.engine.operator.join.HashJoinExec;
import dev.quiver.engine.operator.sort.SortExec;
import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.engine.spill.SpillMetrics;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.Stream;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * Queries larger than the memory pool complete by spilling: each runs once with an unlimited pool
 * (the oracle, and the memory it needs) and once with a quarter of that, and must give the same
 * rows in the same order, spill files while it runs, and leave no file and no reservation behind.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SpillQueriesTest {
    private TpchCatalog catalog;

    @TempDir
    Path spillDirectory;

    @BeforeAll
    void generate() {
        catalog = TpchCatalog.cached(0.1, 1L << 30);
    }

    @AfterAll
    void close() {
        catalog.close();
    }

    @Test
    void orderByOfAllOfLineitemSpillsWithAQuarterOfTheMemory() throws IOException {
        String sql = "select * from lineitem order by l_shipdate desc, l_orderkey, l_linenumber";
        Digest spilled = aQuarterOfTheMemoryGivesTheSameRows(sql, Map.of(), SortExec.class, Digest::of, 4);
        assertThat(spilled.rows()).isEqualTo(600_572);
    }

    @Test
    void groupByOrderAndPartOfAllOfLineitemSpillsWithAQuarterOfTheMemory() throws IOException {
        String sql = "select l_orderkey, l_partkey, count(*), sum(l_quantity), min(l_comment), max(l_shipdate) "
                + "from lineitem group by l_orderkey, l_partkey";
        RowSet spilled = aQuarterOfTheMemoryGivesTheSameRows(sql, Map.of(), HashAggregateExec.class, RowSet::of, 1);
        // (order, part) pairs are almost all distinct: the groups are about as many as the rows
        assertThat(spilled.rows()).isGreaterThan(500_000);
    }

    @Test
    void lineitemJoinOrdersSpillsWithAQuarterOfTheMemory() throws IOException {
        String sql = "select l_orderkey, l_linenumber, l_extendedprice, o_orderdate, o_orderpriority, o_comment "
                + "from lineitem join orders on l_orderkey = o_orderkey";
        // orders' 150,000 rows are below the planner's broadcast threshold, which cannot spill: partition both sides
        RowSet spilled = aQuarterOfTheMemoryGivesTheSameRows(sql, Map.of("hash_join_collect_left_max_rows", "1000"), HashJoinExec.class,
                RowSet::of, 1);
        assertThat(spilled.rows()).isEqualTo(600_572);
    }

    /**
     * Runs {@code sql} with an unlimited pool, then with a quarter of the peak it reached, and checks
     * that the second gives the same {@code digest} of its rows, that {@code spilling} operators
     * spilled at least {@code minSpills} times to files that are gone afterwards, and that the pool
     * is back to 0; returns the digest.
     */
    private <D> D aQuarterOfTheMemoryGivesTheSameRows(String sql, Map<String, String> settings, Class<? extends ExecutionPlan> spilling,
            Function<QueryHandle, D> digest, long minSpills) throws IOException {
        D inMemory;
        long needed;
        try (QuerySession session = session(Long.MAX_VALUE, settings)) {
            try (QueryHandle handle = session.execute(sql)) {
                inMemory = digest.apply(handle);
                assertThat(spills(handle.plan(), spilling)).isZero();
            }
            needed = session.memoryPool().peak();
        }
        try (QuerySession session = session(needed / 4, settings)) {
            try (QueryHandle handle = session.execute(sql)) {
                assertThat(digest.apply(handle)).isEqualTo(inMemory);
                assertThat(spills(handle.plan(), spilling)).isGreaterThanOrEqualTo(minSpills);
            }
            assertThat(session.memoryPool().used()).isZero();
        }
        try (Stream<Path> left = Files.walk(spillDirectory)) {
            assertThat(left.filter(path -> !path.equals(spillDirectory)).toList()).isEmpty();
        }
        return inMemory;
    }

    private QuerySession session(long memoryLimit, Map<String, String> settings) {
        QuerySession.Builder builder = QuerySession.builder().catalog(catalog).targetPartitions(2)
                .set(EngineSettings.SPILL_DIRECTORY, spillDirectory.toString());
        if (memoryLimit != Long.MAX_VALUE) {
            builder.memoryLimit(memoryLimit);
        }
        settings.forEach(builder::set);
        return builder.build();
    }

    private static long spills(ExecutionPlan plan, Class<? extends ExecutionPlan> operator) {
        return PlanTree.nodesOf(plan, operator).stream()
                .mapToLong(node -> node.metrics().counters().getOrDefault(SpillMetrics.SPILL_COUNT, 0L)).sum();
    }

    /** The row count and an order-insensitive digest of every row: for results whose order is not defined. */
    private record RowSet(long rows, long sum, long xor) {
        static RowSet of(QueryHandle handle) {
            long rows = 0;
            long sum = 0;
            long xor = 0;
            BatchStream stream = handle.stream();
            for (VectorSchemaRoot next = stream.next(); next != null; next = stream.next()) {
                try (VectorSchemaRoot batch = next) {
                    for (int row = 0; row < batch.getRowCount(); row++) {
                        long hash = 17;
                        for (FieldVector vector : batch.getFieldVectors()) {
                            hash = hash * 1_000_003 + Objects.hashCode(VectorValues.get(vector, row));
                        }
                        // mixed so that sums of nearby hashes do not collide; the sum still counts a row twice where the xor cannot
                        long mixed = hash * 0x9E3779B97F4A7C15L;
                        mixed ^= mixed >>> 29;
                        rows++;
                        sum += mixed;
                        xor ^= mixed;
                    }
                }
            }
            return new RowSet(rows, sum, xor);
        }
    }

    /** The row count, an order-sensitive hash of every value, and the first and last rows in full. */
    private record Digest(long rows, long hash, List<List<Object>> first, List<List<Object>> last) {
        private static final int KEPT = 50;

        static Digest of(QueryHandle handle) {
            long rows = 0;
            long hash = 17;
            List<List<Object>> first = new ArrayList<>();
            List<List<Object>> last = new ArrayList<>();
            BatchStream stream = handle.stream();
            for (VectorSchemaRoot next = stream.next(); next != null; next = stream.next()) {
                try (VectorSchemaRoot batch = next) {
                    for (int row = 0; row < batch.getRowCount(); row++) {
                        List<Object> values = new ArrayList<>();
                        for (FieldVector vector : batch.getFieldVectors()) {
                            Object value = VectorValues.get(vector, row);
                            values.add(value);
                            hash = hash * 1_000_003 + Objects.hashCode(value);
                        }
                        rows++;
                        if (first.size() < KEPT) {
                            first.add(values);
                        }
                        last.add(values);
                        if (last.size() > KEPT) {
                            last.remove(0);
                        }
                    }
                }
            }
            return new Digest(rows, hash, first, last);
        }
    }
}
