package dev.quiver.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QueryWarning;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.error.WarningCode;
import dev.quiver.engine.execution.PlanDisplay;
import dev.quiver.engine.source.json.JsonScanExec;
import dev.quiver.engine.types.QuiverTypes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** JSON Lines files DuckDB writes, read with read_json and FROM 'x.json'; answers equal DuckDB's on one node and on four workers. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JsonFilesDuckDbTest {
    @TempDir
    static Path directory;

    private DuckDbOracle duckdb;
    private ExecutionModes modes;

    @BeforeAll
    void writeFiles() throws SQLException, IOException {
        duckdb = new DuckDbOracle(new MemoryCatalog());
        modes = new ExecutionModes(new MemoryCatalog());
        try (Statement statement = duckdb.connection().createStatement()) {
            statement.execute("CREATE TABLE source AS SELECT i AS id, i % 4 AS k, CASE WHEN i % 5 = 0 THEN NULL ELSE 'name \"' || i || '\"' END AS name, "
                    + "i * 0.25 AS price, i % 2 = 0 AS flag, DATE '2024-01-01' + CAST(i % 30 AS INTEGER) AS day, "
                    + "TIMESTAMP '2024-01-01 10:00:00' + INTERVAL (i) MINUTE AS ts FROM range(500) t(i)");
            statement.execute("COPY source TO '" + directory.resolve("rows.json") + "' (FORMAT JSON)");
            statement.execute("COPY source TO '" + directory.resolve("hive") + "' (FORMAT JSON, PARTITION_BY (k))");
        }
        Files.writeString(directory.resolve("bad.jsonl"), "{\"a\": 1, \"b\": \"x\"}\n{\"a\": 2, \"b\": \n{\"a\": \"three\", \"b\": \"z\"}\n\n{\"B\": \"w\", \"a\": 4}\n");
    }

    @AfterAll
    void tearDown() throws SQLException {
        try (DuckDbOracle closedLast = duckdb; ExecutionModes closedFirst = modes) {
            modes.assertNothingLeft();
        }
    }

    private QueryResult assertSameAsDuckDb(ExecutionModes.Mode mode, String sql) throws SQLException {
        return FileQueryChecks.assertSameAsDuckDb(duckdb, modes, mode, sql, directory);
    }

    @ParameterizedTest
    @EnumSource(ExecutionModes.Mode.class)
    void jsonLinesAreTables(ExecutionModes.Mode mode) throws SQLException {
        QueryResult result = assertSameAsDuckDb(mode, "SELECT id, k, name, price, flag, day, ts FROM read_json('%s/rows.json') WHERE k = 1 ORDER BY id");
        assertThat(result.schema().getFields()).extracting(f -> QuiverTypes.sqlName(f.getType()))
                .containsExactly("BIGINT", "BIGINT", "VARCHAR", "DOUBLE", "BOOLEAN", "DATE", "TIMESTAMP");
        assertSameAsDuckDb(mode, "SELECT flag, count(*), sum(price), count(name), max(ts) FROM '%s/rows.json' GROUP BY flag ORDER BY flag");
        assertSameAsDuckDb(mode, "SELECT k, count(*), min(day) FROM read_json('%s/hive/*/*.json') WHERE k >= 2 GROUP BY k ORDER BY k");
    }

    @Test
    void aBadLineFailsNamingFileAndLineOrItsValuesAreNull() throws SQLException {
        String file = directory.resolve("bad.jsonl").toString();
        for (QuerySession session : modes.sessions()) {
            assertThatThrownBy(() -> session.executeScript("SELECT * FROM read_json('" + file + "')"))
                    .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.SOURCE_ERROR))
                    .hasMessageStartingWith("JSON file " + file + " line 2: ");
        }
        String query = "SELECT a, b FROM read_json('" + file + "', columns = {'a': 'BIGINT', 'b': 'VARCHAR'}, ignore_errors = true) ORDER BY a";
        for (ExecutionModes.Mode mode : ExecutionModes.Mode.values()) {
            QueryResult result = modes.run(mode, query);
            assertThat(DuckDbOracle.normalize(result.rows())).as(mode.name()).isEqualTo(duckdb.query(query));
            // the value "three" and the line that is not an object
            assertThat(result.warnings()).as(mode.name()).containsExactly(new QueryWarning(WarningCode.ERRORS_IGNORED, "2 errors in read_json('" + file
                    + "', columns = {'a': 'BIGINT', 'b': 'VARCHAR'}, ignore_errors = true) ignored (ignore_errors = true): a value that does not read as"
                    + " its column's type is NULL, a line that is not a JSON object a row of NULLs"));
        }
        try (QueryHandle handle = modes.sessions().get(0).execute(query)) {
            handle.collect();
            JsonScanExec scan = FileQueryChecks.onlyScan(handle.plan(), JsonScanExec.class);
            assertThat(scan.metrics().counters()).as(PlanDisplay.indentWithMetrics(handle.plan())).containsEntry("errors_ignored", 2L);
        }
    }
}
