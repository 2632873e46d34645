package dev.quiver.examples.numbers;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.cli.QuiverCli;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The example plugin through the {@code quiver} command, as docs/aqe.md runs it: found on the class
 * path by {@code ServiceLoader}, its table scanned on 4 local workers with AQE, its scan sized with its
 * estimator's split, its rows those of the same query on one node and in DuckDB.
 */
class NumbersExampleCliTest {
    static final String QUERY = "SELECT bucket, count(*) AS numbers, sum(n) AS total FROM numbers GROUP BY bucket ORDER BY bucket";
    private static final String[] AQE = {"--local-workers", "4", "--set", "distributed.dynamic_task_count=true"};

    @Test
    void runsDistributedWithAqeAndTheEstimatorsHintShowsInExplainAnalyze() {
        String explained = cli(concat(AQE, "EXPLAIN ANALYZE " + QUERY));
        assertThat(explained).contains("NumbersScanExec").contains("NumbersEstimator: 4000000 numbers at 1000000 per task");
        // the scan stage ran as tasks on the workers, each reading its share of the range
        assertThat(explained).containsPattern("Stage \\d+: [2-4] tasks");
        assertThat(explained).doesNotContain("has no TaskEstimator");
    }

    @Test
    void rowsEqualSingleNodeAndDuckDb() throws SQLException {
        List<String> distributed = cli(concat(AQE, "--format", "csv", QUERY)).lines().toList();
        List<String> singleNode = cli("--format", "csv", QUERY).lines().toList();
        assertThat(distributed).hasSize(1 + (int) NumbersPlugin.BUCKETS).isEqualTo(singleNode);
        assertThat(distributed.subList(1, distributed.size())).isEqualTo(duckDb(
                "SELECT n % 1000 AS bucket, count(*), sum(n) FROM range(0, " + NumbersPlugin.ROWS + ") t(n) GROUP BY 1 ORDER BY 1"));
    }

    private static String cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = QuiverCli.commandLine(new ByteArrayInputStream(new byte[0]), new PrintWriter(out, true), new PrintWriter(err, true))
                .execute(concat(new String[] {"sql"}, args));
        assertThat(err.toString()).isEmpty();
        assertThat(exit).isZero();
        return out.toString();
    }

    private static String[] concat(String[] first, String... rest) {
        String[] all = Arrays.copyOf(first, first.length + rest.length);
        System.arraycopy(rest, 0, all, first.length, rest.length);
        return all;
    }

    /** The rows of {@code sql} in DuckDB as CSV lines. */
    private static List<String> duckDb(String sql) throws SQLException {
        List<String> lines = new ArrayList<>();
        try (Connection connection = DriverManager.getConnection("jdbc:duckdb:"); Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(sql)) {
            while (rows.next()) {
                lines.add(rows.getLong(1) + "," + rows.getLong(2) + "," + rows.getBigDecimal(3).toPlainString());
            }
        }
        return lines;
    }
}
