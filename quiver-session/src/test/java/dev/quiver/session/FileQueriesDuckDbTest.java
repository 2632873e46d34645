package dev.quiver.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.PlanDisplay;
import dev.quiver.engine.source.parquet.ParquetScanExec;
import dev.quiver.engine.types.QuiverTypes;
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
 * Querying files by name, as DuckDB users do: {@code FROM 'x.parquet'}, {@code read_parquet} over
 * globs, directories and Hive-partitioned layouts. DuckDB writes every file and answers the same
 * SQL text over them; Quiver's answers must equal its answers on one node and on four local
 * workers (static and adaptive task counts).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FileQueriesDuckDbTest {
    @TempDir
    static Path directory;

    private DuckDbOracle duckdb;
    private ExecutionModes modes;

    @BeforeAll
    void writeFiles() throws SQLException {
        duckdb = new DuckDbOracle(new MemoryCatalog());
        modes = new ExecutionModes(new MemoryCatalog());
        String rows = "SELECT i AS id, i % 7 AS k, CAST(i * 1.25 AS DECIMAL(12,2)) AS price, 'name ' || i AS name, "
                + "DATE '2024-01-01' + CAST(i % 90 AS INTEGER) AS day, CASE WHEN i % 5 = 0 THEN NULL ELSE i * 0.5 END AS half "
                + "FROM range(2000) t(i)";
        duckdb("COPY (" + rows + ") TO '" + path("one.parquet") + "' (FORMAT PARQUET, ROW_GROUP_SIZE 500)");
        Path parts = directory.resolve("parts");
        duckdb("CREATE TABLE source AS " + rows);
        for (int part = 0; part < 8; part++) {
            duckdb("COPY (SELECT * FROM source WHERE id % 8 = " + part + ") TO '" + parts.resolve("part-" + part + ".parquet") + "' (FORMAT PARQUET)");
        }
        duckdb("COPY (SELECT *, 2020 + id % 3 AS year, 1 + id % 12 AS month FROM source) TO '" + path("hive")
                + "' (FORMAT PARQUET, PARTITION_BY (year, month))");
        Path deep = directory.resolve("deep/a/b");
        duckdb("COPY (SELECT * FROM source WHERE id < 10) TO '" + path("deep/top.parquet") + "' (FORMAT PARQUET)");
        duckdb("COPY (SELECT * FROM source WHERE id >= 10 AND id < 30) TO '" + deep.resolve("below.parquet") + "' (FORMAT PARQUET)");
        duckdb("COPY (SELECT id, name FROM source WHERE id < 5) TO '" + path("union/a.parquet") + "' (FORMAT PARQUET)");
        duckdb("COPY (SELECT CAST(id AS BIGINT) * 1000 AS id, price, k FROM source WHERE id < 3) TO '" + path("union/b.parquet") + "' (FORMAT PARQUET)");
    }

    @AfterAll
    void tearDown() throws SQLException {
        try (DuckDbOracle closedLast = duckdb; ExecutionModes closedFirst = modes) {
            modes.assertNothingLeft();
        }
    }

    private void duckdb(String sql) throws SQLException {
        try {
            Files.createDirectories(directory.resolve("deep/a/b"));
            Files.createDirectories(directory.resolve("parts"));
            Files.createDirectories(directory.resolve("union"));
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
        try (Statement statement = duckdb.connection().createStatement()) {
            statement.execute(sql);
        }
    }

    private static String path(String relative) {
        return directory.resolve(relative).toString();
    }

    /** {@code sql} with {@code %s} replaced by the test directory, run on DuckDB and in {@code mode}: the rows must be equal. */
    private QueryResult assertSameAsDuckDb(ExecutionModes.Mode mode, String sql) throws SQLException {
        String query = sql.replace("%s", directory.toString());
        List<List<Object>> expected = duckdb.query(query);
        QueryResult result = modes.run(mode, query);
        assertThat(DuckDbOracle.normalize(result.rows())).as(query).isEqualTo(expected);
        assertThat(expected).isNotEmpty();
        return result;
    }

    @ParameterizedTest
    @EnumSource(ExecutionModes.Mode.class)
    void aStringIsATable(ExecutionModes.Mode mode) throws SQLException {
        assertSameAsDuckDb(mode, "SELECT id, k, price, name, day, half FROM '%s/one.parquet' WHERE k = 3 ORDER BY id");
        assertSameAsDuckDb(mode, "SELECT k, count(*), sum(price), min(day), max(half) FROM \"%s/one.parquet\" GROUP BY k ORDER BY k");
    }

    @ParameterizedTest
    @EnumSource(ExecutionModes.Mode.class)
    void aGlobOfEightFilesIsOneTable(ExecutionModes.Mode mode) throws SQLException {
        assertSameAsDuckDb(mode, "SELECT k, count(*), sum(price), count(half) FROM read_parquet('%s/parts/*.parquet') GROUP BY k ORDER BY k");
        assertSameAsDuckDb(mode, "SELECT p.id, p.name, o.k FROM read_parquet('%s/parts/part-[13].parquet') p JOIN '%s/one.parquet' o ON p.id = o.id "
                + "WHERE p.id < 200 ORDER BY p.id");
        assertSameAsDuckDb(mode, "SELECT count(*) FROM read_parquet(['%s/parts/part-0.parquet', '%s/parts/part-7.parquet'])");
    }

    @ParameterizedTest
    @EnumSource(ExecutionModes.Mode.class)
    void directoriesAndDoubleStarsReadEveryLevel(ExecutionModes.Mode mode) throws SQLException {
        assertSameAsDuckDb(mode, "SELECT count(*), min(id), max(id) FROM read_parquet('%s/deep/**/*.parquet')");
        assertSameAsDuckDb(mode, "SELECT count(*), min(id), max(id) FROM read_parquet('%s/deep')");
        assertSameAsDuckDb(mode, "SELECT count(*), min(id), max(id) FROM read_parquet('%s/deep/*/*/*.parquet')");
    }

    @ParameterizedTest
    @EnumSource(ExecutionModes.Mode.class)
    void hivePartitionsAreColumns(ExecutionModes.Mode mode) throws SQLException {
        assertSameAsDuckDb(mode, "SELECT year, month, count(*), sum(price) FROM read_parquet('%s/hive/*/*/*.parquet', hive_partitioning = true) "
                + "GROUP BY year, month ORDER BY year, month");
        assertSameAsDuckDb(mode, "SELECT id, year, month FROM read_parquet('%s/hive/**/*.parquet') WHERE year = 2021 AND month IN (2, 3) AND id < 300 "
                + "ORDER BY id");
    }

    @Test
    void partitionColumnsAreTypedAsDuckDbTypesThem() throws SQLException {
        QueryResult result = modes.run(ExecutionModes.Mode.SINGLE_NODE,
                "SELECT * FROM read_parquet('" + path("hive") + "/*/*/*.parquet') LIMIT 1");
        List<Field> fields = result.schema().getFields();
        assertThat(fields.subList(fields.size() - 2, fields.size())).extracting(Field::getName).containsExactly("month", "year");
        List<List<Object>> duckTypes = duckdb.query("SELECT typeof(month), typeof(year) FROM read_parquet('" + path("hive") + "/*/*/*.parquet') LIMIT 1");
        assertThat(duckTypes).containsExactly(List.of("BIGINT", "BIGINT"));
        assertThat(fields.get(fields.size() - 1).getType()).isEqualTo(QuiverTypes.INT64);
    }

    @Test
    void aFilterOnPartitionColumnsOpensOnlyTheMatchingFiles() throws SQLException {
        String query = "SELECT count(*), sum(price) FROM read_parquet('%s/hive/*/*/*.parquet') WHERE year = 2022 AND month = 6";
        assertSameAsDuckDb(ExecutionModes.Mode.SINGLE_NODE, query);
        try (QueryHandle handle = modes.sessions().get(0).execute(query.replace("%s", directory.toString()))) {
            handle.collect();
            ParquetScanExec scan = scan(handle.plan());
            assertThat(scan.filesScanned()).as(PlanDisplay.indent(handle.plan())).isEqualTo(1);
            // id % 3 and id % 12 make 12 (year, month) partitions
            assertThat(scan.fileCount()).isEqualTo(12);
            assertThat(scan.metrics().counters()).containsEntry("files_opened", 1L);
        }
    }

    @ParameterizedTest
    @EnumSource(ExecutionModes.Mode.class)
    void unionByNameReadsFilesWithDifferentColumns(ExecutionModes.Mode mode) throws SQLException {
        QueryResult result = assertSameAsDuckDb(mode,
                "SELECT id, name, price, k FROM read_parquet('%s/union/*.parquet', union_by_name = true) ORDER BY id");
        ArrowType id = result.schema().getFields().get(0).getType();
        assertThat(id).isEqualTo(QuiverTypes.INT64);
    }

    @ParameterizedTest
    @EnumSource(ExecutionModes.Mode.class)
    void aQueryMayStartWithFrom(ExecutionModes.Mode mode) throws SQLException {
        assertSameAsDuckDb(mode, "FROM '%s/one.parquet' WHERE id < 5 ORDER BY id");
    }

    @Test
    void badFilesFailWithOneLineNamingTheFile() throws Exception {
        Path truncated = directory.resolve("truncated.parquet");
        byte[] bytes = Files.readAllBytes(directory.resolve("one.parquet"));
        Files.write(truncated, java.util.Arrays.copyOf(bytes, bytes.length / 2));
        Path csv = Files.writeString(directory.resolve("really-a-csv.parquet"), "a,b\n1,2\n");
        assertError("SELECT * FROM read_parquet('%s/none/*.parquet')", ErrorCode.SOURCE_ERROR,
                "No files match the pattern '" + directory + "/none/*.parquet'");
        assertError("SELECT count(*) FROM '%s/truncated.parquet'", ErrorCode.SOURCE_ERROR, "cannot read Parquet file " + truncated + ": ");
        assertError("SELECT count(*) FROM '%s/really-a-csv.parquet'", ErrorCode.SOURCE_ERROR, "cannot read Parquet file " + csv + ": ");
        assertError("SELECT * FROM read_parquet('%s/one.parquet', hive_partitioning = true)", ErrorCode.SOURCE_ERROR,
                "hive_partitioning is on, but the path of " + directory.resolve("one.parquet") + " has no key=value directory");
        assertError("SELECT * FROM read_parquet('%s/one.parquet', delim = ';')", ErrorCode.INVALID_ARGUMENT, "Unknown option 'delim' for parquet files");
        assertError("SELECT * FROM read_parquet('%s/one.parquet', hive_partitioning = 'maybe')", ErrorCode.INVALID_ARGUMENT,
                "Option hive_partitioning = maybe: expected true or false");
        assertError("SELECT * FROM read_parquet(hive_partitioning = true)", ErrorCode.INVALID_ARGUMENT, "read_parquet needs the file as its first argument");
        assertError("SELECT * FROM read_parquet('%s/one.parquet'", ErrorCode.SYNTAX_ERROR, "");
        // the session is still usable
        assertSameAsDuckDb(ExecutionModes.Mode.SINGLE_NODE, "SELECT count(*) FROM '%s/one.parquet'");
    }

    private void assertError(String sql, ErrorCode code, String messageStart) {
        for (QuerySession session : modes.sessions()) {
            assertThatThrownBy(() -> session.executeScript(sql.replace("%s", directory.toString())))
                    .isInstanceOfSatisfying(QuiverException.class, e -> {
                        assertThat(e.errorCode()).as(e.getMessage()).isEqualTo(code);
                        assertThat(e.getMessage()).startsWith(messageStart).doesNotContain("\n");
                    });
        }
    }

    private static ParquetScanExec scan(ExecutionPlan plan) {
        List<ParquetScanExec> found = new ArrayList<>();
        collect(plan, found);
        assertThat(found).hasSize(1);
        return found.get(0);
    }

    private static void collect(ExecutionPlan plan, List<ParquetScanExec> found) {
        if (plan instanceof ParquetScanExec scan) {
            found.add(scan);
        }
        plan.children().forEach(child -> collect(child, found));
    }
}
