package dev.quiver.engine.operator.window;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.engine.execution.ExecutionConfig;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.memory.MemoryPool;
import dev.quiver.engine.operator.sort.SortExec;
import dev.quiver.engine.operator.sort.SortKey;
import dev.quiver.engine.source.memory.MemoryScanExec;
import dev.quiver.engine.testing.TestingContext;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Random window expressions — every function, ROWS/RANGE/GROUPS frames with every kind of bound
 * and exclusion, PARTITION BY and ORDER BY in both directions with NULLs first or last — computed by
 * a {@link WindowExec} over sorted input and by DuckDB over the same rows, compared row by row. The
 * batch size varies so that window partitions straddle batches and chunks.
 */
class WindowExecDuckDbTest {
    private static WindowTestData data;

    @BeforeAll
    static void load() throws SQLException {
        data = new WindowTestData(1000, 0.42);
    }

    @AfterAll
    static void close() throws SQLException {
        data.close();
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void randomWindowsMatchDuckDb(long seed) throws SQLException {
        RandomWindows windows = new RandomWindows(seed);
        int batchSize = List.of(7, 64, 500, 8192).get((int) (seed % 4));
        try (TestingContext tc = new TestingContext(MemoryPool.unlimited(), new ExecutionConfig(batchSize, 2))) {
            for (int i = 0; i < 40; i++) {
                RandomWindows.Case c = windows.next();
                check(c, tc, seed, i);
            }
        }
    }

    private static void check(RandomWindows.Case c, TestingContext tc, long seed, int index) throws SQLException {
        Map<Object, Object> expected = new HashMap<>();
        List<List<Object>> duck;
        try {
            duck = data.query("SELECT id, " + c.duckdb() + " FROM t");
        } catch (SQLException e) {
            throw new AssertionError("DuckDB rejected case " + seed + "/" + index + ": " + c.describe() + ": " + e.getMessage(), e);
        }
        duck.forEach(row -> expected.put(row.get(0), row.get(1)));
        List<List<Object>> actual = tc.rows(plan(c));
        assertThat(actual).as("rows of %s", c.describe()).hasSize(expected.size());
        int valueColumn = WindowTestData.SCHEMA.getFields().size();
        List<String> mismatches = new ArrayList<>();
        for (List<Object> row : actual) {
            Object want = expected.get(row.get(0));
            Object got = row.get(valueColumn);
            if (!WindowTestData.same(got, want)) {
                mismatches.add("id " + row.get(0) + ": got " + got + ", DuckDB " + want);
            }
        }
        assertThat(mismatches).as("case %d/%d: %s", seed, index, c.describe()).isEmpty();
    }

    /** Sorts on the partition keys then the order keys, as the planner does, and applies the window. */
    static ExecutionPlan plan(RandomWindows.Case c) {
        List<SortKey> sortKeys = new ArrayList<>();
        for (PhysicalExpr key : c.partitionKeys()) {
            sortKeys.add(new SortKey(key, true, true));
        }
        sortKeys.addAll(c.orderKeys());
        ExecutionPlan input = new MemoryScanExec(WindowTestData.SCHEMA, List.of(data.rows()));
        if (!sortKeys.isEmpty()) {
            input = new SortExec(input, sortKeys, OptionalLong.empty(), false);
        }
        return new WindowExec(input, c.partitionKeys(), c.orderKeys(), List.of(c.expr()));
    }
}
