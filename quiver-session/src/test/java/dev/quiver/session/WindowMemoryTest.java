package dev.quiver.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.operator.sort.SortExec;
import dev.quiver.engine.operator.window.WindowExec;
import dev.quiver.engine.types.QuiverTypes;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A window over one million rows in one window partition, within a memory limit, against DuckDB
 * computing the same query over the same rows; and the same partition failing clearly, naming
 * WindowExec, when the limit leaves the window less than it needs — while a million rows in many
 * small window partitions still fit, because WindowExec holds one window partition at a time.
 */
class WindowMemoryTest {
    private static final int ROWS = 1_000_000;
    /** The rows of {@code big} as DuckDB computes them: the same formulas as {@link #bigTable()}. */
    private static final String DUCK_BIG = "SELECT CAST(i AS INTEGER) AS id, CASE WHEN i % 97 = 0 THEN NULL ELSE (i * 7919) % 1000 - 500 END AS v"
            + " FROM range(" + ROWS + ") r(i)";
    private static final String ONE_PARTITION = "select count(*), sum(rn), sum(running), min(running), max(running), sum(prev), sum(rk), max(dr)"
            + " from (select row_number() over (order by v, id) as rn, sum(v) over (order by v, id) as running,"
            + " lag(v) over (order by id) as prev, rank() over (order by v) as rk, dense_rank() over (order by v) as dr from big) x";

    private static MemoryCatalog catalog;

    @BeforeAll
    static void load() {
        catalog = new MemoryCatalog().add("big", new Schema(List.of(
                QuiverTypes.field("id", QuiverTypes.INT32, false), QuiverTypes.field("v", QuiverTypes.INT64, true))), bigTable());
    }

    private static List<List<Object>> bigTable() {
        List<List<Object>> rows = new ArrayList<>(ROWS);
        for (long i = 0; i < ROWS; i++) {
            rows.add(Arrays.asList((int) i, i % 97 == 0 ? null : (i * 7919) % 1000 - 500));
        }
        return rows;
    }

    private static List<Object> duckdb(String query) throws SQLException {
        try (Connection connection = DriverManager.getConnection("jdbc:duckdb:"); Statement statement = connection.createStatement()) {
            statement.execute("SET default_null_order = 'nulls_last_on_asc_first_on_desc'");
            statement.execute("CREATE TABLE big AS " + DUCK_BIG);
            try (ResultSet result = statement.executeQuery(query)) {
                result.next();
                List<Object> row = new ArrayList<>();
                for (int i = 1; i <= result.getMetaData().getColumnCount(); i++) {
                    row.add(DuckDbOracle.normalize(result.getObject(i)));
                }
                return row;
            }
        }
    }

    @Test
    void aMillionRowsInOneWindowPartitionWithinTheLimit() throws SQLException {
        long limit = 512L << 20;
        try (QuerySession session = QuerySession.builder().catalog(catalog).memoryLimit(limit).targetPartitions(2).build()) {
            List<Object> actual = DuckDbOracle.normalize(session.executeScript(ONE_PARTITION).rows()).get(0);
            assertThat(actual).isEqualTo(duckdb(ONE_PARTITION));
            assertThat(session.memoryPool().peak()).isLessThanOrEqualTo(limit);
            assertThat(session.memoryPool().used()).isZero();
        }
    }

    @Test
    void aWindowPartitionBeyondTheLimitFailsNamingWindowExecAndSmallPartitionsFit() throws SQLException {
        String one = "select id, sum(v) over (order by id) from big";
        long sortPeak;
        long windowPeak;
        try (QuerySession unlimited = QuerySession.builder().catalog(catalog).targetPartitions(1).build();
                QueryHandle handle = unlimited.execute(one)) {
            handle.collect();
            sortPeak = peak(handle.plan(), SortExec.class);
            windowPeak = peak(handle.plan(), WindowExec.class);
        }
        assertThat(sortPeak).isPositive();
        // room for the sort below, and for half of what the window partition needs
        long limit = sortPeak + windowPeak / 2;
        try (QuerySession session = QuerySession.builder().catalog(catalog).memoryLimit(limit).targetPartitions(1).build()) {
            assertThatThrownBy(() -> session.executeScript(one))
                    .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.EXCEEDED_MEMORY_LIMIT))
                    .hasMessageContaining("WindowExec[partition=0]");
            assertThat(session.memoryPool().used()).isZero();
            String many = "select count(*), sum(s) from (select sum(v) over (partition by id % 1000 order by id) as s from big) x";
            assertThat(DuckDbOracle.normalize(session.executeScript(many).rows()).get(0)).isEqualTo(duckdb(many));
        }
    }

    private static long peak(ExecutionPlan plan, Class<? extends ExecutionPlan> type) {
        long peak = type.isInstance(plan) ? plan.metrics().summedPeakMemoryBytes() : 0;
        for (ExecutionPlan child : plan.children()) {
            peak = Math.max(peak, peak(child, type));
        }
        return peak;
    }
}
