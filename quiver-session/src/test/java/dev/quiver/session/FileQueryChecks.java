package dev.quiver.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.engine.execution.ExecutionPlan;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** What the tests of querying files share: the same SQL on DuckDB and Quiver, and finding a plan's one scan. */
final class FileQueryChecks {
    private FileQueryChecks() {}

    /**
     * {@code sql} with {@code %s} replaced by {@code directory}, run on DuckDB and in {@code mode}:
     * the rows must be equal, and not empty (a test of nothing proves nothing).
     */
    static QueryResult assertSameAsDuckDb(DuckDbOracle duckdb, ExecutionModes modes, ExecutionModes.Mode mode, String sql, Path directory)
            throws SQLException {
        String query = sql.replace("%s", directory.toString());
        List<List<Object>> expected = duckdb.query(query);
        QueryResult result = modes.run(mode, query);
        assertThat(DuckDbOracle.normalize(result.rows())).as(query).isEqualTo(expected);
        assertThat(expected).isNotEmpty();
        return result;
    }

    /** The plan's one node of {@code type}. */
    static <T extends ExecutionPlan> T onlyScan(ExecutionPlan plan, Class<T> type) {
        List<T> found = new ArrayList<>();
        collect(plan, type, found);
        assertThat(found).hasSize(1);
        return found.get(0);
    }

    private static <T extends ExecutionPlan> void collect(ExecutionPlan plan, Class<T> type, List<T> found) {
        if (type.isInstance(plan)) {
            found.add(type.cast(plan));
        }
        plan.children().forEach(child -> collect(child, type, found));
    }
}
