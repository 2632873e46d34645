package dev.quiver.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QueryWarning;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.error.WarningCode;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.PlanDisplay;
import dev.quiver.engine.source.csv.CsvScanExec;
import dev.quiver.engine.types.QuiverTypes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * CSV files other tools write, read with DuckDB's options and its sniffing: DuckDB writes the files
 * (or the test writes the odd ones by hand) and answers the same SQL over them; Quiver's answers
 * must equal its answers on one node and on four local workers.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CsvFilesDuckDbTest {
    @TempDir
    static Path directory;

    private static final int MANY_BAD_FILES = 4;
    private static final int MANY_BAD_LINES = 750;

    private DuckDbOracle duckdb;
    private ExecutionModes modes;

    @BeforeAll
    void writeFiles() throws SQLException, IOException {
        duckdb = new DuckDbOracle(new MemoryCatalog());
        modes = new ExecutionModes(new MemoryCatalog());
        duckdb("CREATE TABLE source AS SELECT i AS id, i % 5 AS k, CAST(i * 0.25 AS DECIMAL(10,2)) AS amount, "
                + "CASE WHEN i % 4 = 0 THEN NULL ELSE 'text ' || i || CASE WHEN i % 3 = 0 THEN ', with \"quotes\"; and semicolons' ELSE '' END END AS note, "
                + "DATE '2023-06-01' + CAST(i % 40 AS INTEGER) AS day, 2020 + i % 3 AS year FROM range(600) t(i)");
        duckdb("COPY (SELECT * EXCLUDE (year) FROM source) TO '" + path("semi.csv") + "' (DELIMITER ';', HEADER)");
        duckdb("COPY (SELECT * EXCLUDE (year) FROM source) TO '" + path("plain.tsv") + "' (DELIMITER '\t', HEADER false)");
        duckdb("COPY (SELECT * EXCLUDE (year) FROM source) TO '" + path("na.csv") + "' (NULLSTR 'NA', HEADER)");
        duckdb("COPY (SELECT * EXCLUDE (year) FROM source) TO '" + path("escaped.csv") + "' (QUOTE '''', ESCAPE '\\', HEADER)");
        duckdb("COPY (SELECT * FROM source) TO '" + path("hive") + "' (FORMAT CSV, PARTITION_BY (year))");
        Files.writeString(directory.resolve("dates.csv"), "id,day\n1,2024-01-05\n2,\n3,2024-02-30\n4,2024-12-31\n");
        Files.writeString(directory.resolve("big.csv"), "small,big,huge\n1,1234567890123456789,1234567890123456789012345\n"
                + "-2,-9223372036854775808,-99999999999999999999999999999999999999\n");
        Files.writeString(directory.resolve("codes.csv"), "code,flag\n0012,true\n12,False\n007,TRUE\n");
        Files.writeString(directory.resolve("bad.csv"), "a,b\n1,2\n3\n4,x\n5,6,7\n8,9\n");
        Files.createDirectories(directory.resolve("many_bad"));
        for (int file = 0; file < MANY_BAD_FILES; file++) {
            StringBuilder manyBad = new StringBuilder("id,amount,day\n");
            for (int i = file * MANY_BAD_LINES; i < (file + 1) * MANY_BAD_LINES; i++) {
                // every 7th row has a field too few, every 11th a field too many, every 13th an amount and every 17th a day that do not read
                manyBad.append(i).append(i % 7 == 3 ? "" : "," + (i % 13 == 5 ? "n/a" : i * 0.5))
                        .append(",").append(i % 17 == 9 ? "2024-02-30" : "2024-01-" + (10 + i % 20)).append(i % 11 == 4 ? ",extra" : "").append('\n');
            }
            Files.writeString(directory.resolve("many_bad/part" + file + ".csv"), manyBad);
        }
    }

    @AfterAll
    void tearDown() throws SQLException {
        try (DuckDbOracle closedLast = duckdb; ExecutionModes closedFirst = modes) {
            modes.assertNothingLeft();
        }
    }

    private void duckdb(String sql) throws SQLException {
        try (Statement statement = duckdb.connection().createStatement()) {
            statement.execute(sql);
        }
    }

    private static String path(String relative) {
        return directory.resolve(relative).toString();
    }

    private QueryResult assertSameAsDuckDb(ExecutionModes.Mode mode, String sql) throws SQLException {
        return FileQueryChecks.assertSameAsDuckDb(duckdb, modes, mode, sql, directory);
    }

    /** The column types DuckDB gives {@code sql}'s result, by name. */
    private List<String> duckTypes(String sql) throws SQLException {
        List<String> types = new ArrayList<>();
        try (Statement statement = duckdb.connection().createStatement();
                var result = statement.executeQuery("DESCRIBE " + sql.replace("%s", directory.toString()))) {
            while (result.next()) {
                types.add(result.getString(1) + " " + result.getString(2));
            }
        }
        return types;
    }

    private static List<String> quiverTypes(QueryResult result) {
        return result.schema().getFields().stream().map(f -> f.getName() + " " + QuiverTypes.sqlName(f.getType())).toList();
    }

    @ParameterizedTest
    @EnumSource(ExecutionModes.Mode.class)
    void theDelimiterAndTheHeaderAreSniffed(ExecutionModes.Mode mode) throws SQLException {
        assertSameAsDuckDb(mode, "SELECT id, k, amount, note, day FROM '%s/semi.csv' WHERE k = 2 ORDER BY id");
        assertSameAsDuckDb(mode, "SELECT column0, column1, column2, column3, column4 FROM '%s/plain.tsv' WHERE column1 = 2 ORDER BY column0");
        assertSameAsDuckDb(mode, "SELECT k, count(*), sum(amount), count(note), max(day) FROM read_csv('%s/semi.csv', delim = ';', header = true) "
                + "GROUP BY k ORDER BY k");
    }

    @ParameterizedTest
    @EnumSource(ExecutionModes.Mode.class)
    void optionsReadWhatOtherToolsWrote(ExecutionModes.Mode mode) throws SQLException {
        assertSameAsDuckDb(mode, "SELECT id, note, amount FROM read_csv('%s/na.csv', nullstr = 'NA') WHERE id < 40 ORDER BY id");
        assertSameAsDuckDb(mode, "SELECT id, note FROM read_csv('%s/escaped.csv', quote = '''', escape = '\\') WHERE id < 40 ORDER BY id");
        assertSameAsDuckDb(mode, "SELECT year, count(*), sum(amount) FROM read_csv('%s/hive/*/*.csv') GROUP BY year ORDER BY year");
    }

    @Test
    void inferredTypesFallBackAsDuckDbsDo() throws SQLException {
        for (String file : List.of("dates.csv", "big.csv", "codes.csv", "semi.csv")) {
            String sql = "SELECT * FROM '%s/" + file + "'";
            QueryResult result = modes.run(ExecutionModes.Mode.SINGLE_NODE, sql.replace("%s", directory.toString()));
            List<String> duck = duckTypes(sql).stream().map(type -> type.replace("HUGEINT", "DECIMAL(38,0)")).toList();
            // Quiver reads a number with the same scale everywhere as a DECIMAL, where DuckDB has DOUBLE
            List<String> quiver = quiverTypes(result).stream().map(type -> type.replace("DECIMAL(18,2)", "DOUBLE")).toList();
            assertThat(quiver).as(file).isEqualTo(duck);
        }
        assertSameAsDuckDb(ExecutionModes.Mode.SINGLE_NODE, "SELECT id, day FROM '%s/dates.csv' ORDER BY id");
        assertSameAsDuckDb(ExecutionModes.Mode.SINGLE_NODE,
                "SELECT small, big, CAST(huge AS VARCHAR) FROM '%s/big.csv' ORDER BY small");
        assertSameAsDuckDb(ExecutionModes.Mode.SINGLE_NODE, "SELECT code, flag FROM '%s/codes.csv' ORDER BY code");
    }

    @Test
    void givenColumnsAndIgnoreErrorsSkipBadRowsAndCountThem() throws SQLException {
        String query = "SELECT a, b FROM read_csv('%s/bad.csv', columns = {'a': 'BIGINT', 'b': 'BIGINT'}, header = true, ignore_errors = true) "
                + "ORDER BY a";
        assertSameAsDuckDb(ExecutionModes.Mode.SINGLE_NODE, query);
        try (QueryHandle handle = modes.sessions().get(0).execute(query.replace("%s", directory.toString()))) {
            handle.collect();
            CsvScanExec scan = scan(handle.plan());
            assertThat(scan.metrics().counters()).as(PlanDisplay.indentWithMetrics(handle.plan())).containsEntry("rows_skipped", 3L);
            assertThat(PlanDisplay.indentWithMetrics(handle.plan())).contains("rows_skipped=3");
        }
    }

    /**
     * The rows ignore_errors skips reach the result as a warning, counted over every partition on
     * one node and over every task's report on workers: as many as DuckDB drops from the same file.
     */
    @ParameterizedTest
    @EnumSource(ExecutionModes.Mode.class)
    void ignoreErrorsWarnsHowManyRowsItSkipped(ExecutionModes.Mode mode) throws SQLException {
        String query = "SELECT id, amount, day FROM read_csv('%s/many_bad/*.csv', columns = {'id': 'BIGINT', 'amount': 'DOUBLE', 'day': 'DATE'}, "
                + "header = true, ignore_errors = true) ORDER BY id";
        QueryResult result = assertSameAsDuckDb(mode, query);
        long skippedByDuckDb = MANY_BAD_FILES * MANY_BAD_LINES - (long) duckdb.query(query.replace("%s", directory.toString())).size();
        assertThat(skippedByDuckDb).isGreaterThan(500);
        String table = "read_csv('" + path("many_bad") + "/*.csv', columns = {'id': 'BIGINT', 'amount': 'DOUBLE', 'day': 'DATE'}, header = true, "
                + "ignore_errors = true)";
        assertThat(result.warnings()).containsExactly(new QueryWarning(WarningCode.ROWS_SKIPPED, skippedByDuckDb + " rows of " + table
                + " skipped (ignore_errors = true): they do not read as the table's columns"));
        if (mode != ExecutionModes.Mode.SINGLE_NODE) {
            // the skipped rows were counted by several tasks
            try (QueryHandle handle = modes.sessions().get(1).execute(query.replace("%s", directory.toString()))) {
                handle.collect();
                assertThat(handle.finalPlan().join().taskReports().stream().filter(report -> report.metrics().stream()
                        .anyMatch(operator -> operator.counters().getOrDefault("rows_skipped", 0L) > 0)).count()).isGreaterThan(1);
            }
        }
        // a file without bad rows: nothing to say
        assertThat(assertSameAsDuckDb(mode, "SELECT k, count(*) FROM read_csv('%s/semi.csv', delim = ';', ignore_errors = true) GROUP BY k ORDER BY k")
                .warnings()).isEmpty();
    }

    @Test
    void aBadRowFailsWithTheFileAndLine() {
        for (QuerySession session : modes.sessions()) {
            assertThatThrownBy(() -> session.executeScript("SELECT * FROM read_csv('" + path("bad.csv") + "', columns = {'a': 'BIGINT', 'b': 'BIGINT'})"))
                    .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.SOURCE_ERROR))
                    // on workers the message says which task failed first
                    .hasMessageEndingWith("CSV file " + path("bad.csv") + " line 3: expected 2 fields as in the header, found 1 (ignore_errors = true skips such rows)");
            assertThatThrownBy(() -> session.executeScript("SELECT * FROM read_csv('" + path("bad.csv") + "', columns = {'a': 'BIGINT', 'b': 'BIGINT'}, "
                    + "sample_size = 1)"))
                    .hasMessageContaining("CSV file " + path("bad.csv") + " line 3: expected 2 fields");
        }
    }

    @Test
    void externalTablesTakeTheSameOptions() throws SQLException {
        QuerySession session = modes.sessions().get(0);
        session.executeScript("CREATE EXTERNAL TABLE semi STORED AS CSV LOCATION '" + path("semi.csv") + "' OPTIONS (delim ';', 'header' 'true')");
        session.executeScript("CREATE EXTERNAL TABLE hive_csv LOCATION '" + path("hive") + "/*/*.csv' OPTIONS (hive_partitioning = true)");
        try {
            QueryResult semi = session.executeScript("SELECT k, count(*), sum(amount) FROM semi GROUP BY k ORDER BY k");
            assertThat(DuckDbOracle.normalize(semi.rows()))
                    .isEqualTo(duckdb.query("SELECT k, count(*), sum(amount) FROM read_csv('" + path("semi.csv") + "') GROUP BY k ORDER BY k"));
            QueryResult hive = session.executeScript("SELECT year, count(*) FROM hive_csv WHERE year >= 2021 GROUP BY year ORDER BY year");
            assertThat(DuckDbOracle.normalize(hive.rows())).isEqualTo(duckdb.query(
                    "SELECT year, count(*) FROM read_csv('" + path("hive") + "/*/*.csv') WHERE year >= 2021 GROUP BY year ORDER BY year"));
            Field year = hive.schema().getFields().get(0);
            assertThat(year.getType()).isEqualTo((ArrowType) QuiverTypes.INT64);
        } finally {
            session.executeScript("DROP TABLE semi; DROP TABLE hive_csv");
        }
        assertThatThrownBy(() -> session.executeScript("CREATE EXTERNAL TABLE t LOCATION '" + path("semi.csv") + "' OPTIONS (delimiter ';')"))
                .hasMessageStartingWith("Unknown option 'delimiter' for csv files; its options are");
    }

    private static CsvScanExec scan(ExecutionPlan plan) {
        return FileQueryChecks.onlyScan(plan, CsvScanExec.class);
    }
}
