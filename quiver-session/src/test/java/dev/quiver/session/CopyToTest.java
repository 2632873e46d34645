package dev.quiver.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.session.ExecutionModes.Mode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * COPY ... TO: what Quiver writes, DuckDB reads back equal to the source rows (DuckDB's own copy of
 * the same tables): Parquet, CSV with options, and Hive-partitioned directories of both, from a
 * single node and from 4 local workers.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CopyToTest {
    private static final String T1 = "select id, k, name, amount, d, flag from t1";
    private static final String T1_COLUMNS = "{'id': 'INTEGER', 'k': 'BIGINT', 'name': 'VARCHAR', 'amount': 'DECIMAL(10,2)', 'd': 'DATE', 'flag': 'BOOLEAN'}";

    @TempDir
    Path dir;
    private DuckDbOracle duckdb;
    private ExecutionModes modes;

    @BeforeAll
    void open() throws SQLException {
        MemoryCatalog catalog = TestTables.catalog();
        duckdb = new DuckDbOracle(catalog);
        modes = new ExecutionModes(catalog);
    }

    @AfterAll
    void close() throws SQLException {
        try (DuckDbOracle closedLast = duckdb; ExecutionModes closedFirst = modes) {
            modes.assertNothingLeft();
        }
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void parquetReadsBackAsTheSource(Mode mode) throws SQLException {
        Path file = dir.resolve(mode + "-t1.parquet");
        QueryResult copied = modes.run(mode, "copy (" + T1 + ") to '" + file + "' (format parquet)");
        assertThat(copied.rows()).containsExactly(List.of(10L));
        assertSameRows("select * from read_parquet('" + file + "')", T1);
        // a table by name; the format from the extension; another codec
        Path t2 = dir.resolve(mode + "-t2.parquet");
        modes.run(mode, "copy t2 to '" + t2 + "' (compression zstd, row_group_size 2)");
        assertSameRows("select * from read_parquet('" + t2 + "')", "select * from t2");
        assertThat(duckdb.query("select count(distinct row_group_id) from parquet_metadata('" + t2 + "')")).containsExactly(List.of(4L));
        assertNoStagingLeft();
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void csvReadsBackAsTheSource(Mode mode) throws SQLException, IOException {
        Path plain = dir.resolve(mode + "-t1.csv");
        modes.run(mode, "copy (" + T1 + ") to '" + plain + "'");
        assertSameRows("select * from read_csv('" + plain + "', header = true, columns = " + T1_COLUMNS + ")", T1);
        Path options = dir.resolve(mode + "-t1.txt");
        modes.run(mode, "copy (" + T1 + ") to '" + options + "' (format csv, delimiter '|', header false, nullstr 'NA', quote '''')");
        assertThat(Files.readAllLines(options, StandardCharsets.UTF_8)).hasSize(10).contains("7|NA|NA|NA|NA|NA");
        assertSameRows("select * from read_csv('" + options + "', header = false, delim = '|', quote = '''', nullstr = 'NA', columns = "
                + T1_COLUMNS + ")", T1);
        assertNoStagingLeft();
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void partitionedDirectoriesReadBackAsTheSource(Mode mode) throws SQLException {
        Path byKey = dir.resolve(mode + "-by-key");
        QueryResult copied = modes.run(mode, "copy (" + T1 + ") to '" + byKey + "' (format parquet, partition_by (k, flag))");
        assertThat(copied.rows()).containsExactly(List.of(10L));
        assertThat(byKey.resolve("k=__HIVE_DEFAULT_PARTITION__/flag=__HIVE_DEFAULT_PARTITION__/data_0.parquet")).exists();
        assertSameRows("select id, k, name, amount, d, flag from read_parquet('" + byKey + "/*/*/*.parquet', hive_partitioning = true,"
                + " hive_types = {'k': BIGINT, 'flag': BOOLEAN})", T1);
        // names with characters a path cannot hold as they are, and NULLs, as DuckDB writes and reads them
        Path byName = dir.resolve(mode + "-by-name");
        modes.run(mode, "copy (select name, id, d from t1) to '" + byName + "' (format csv, partition_by (name))");
        assertThat(byName.resolve("name=fig%25")).isDirectory();
        assertSameRows("select name, id, d from read_csv('" + byName + "/*/*.csv', hive_partitioning = true, header = true,"
                + " columns = {'id': 'INTEGER', 'd': 'DATE'}, hive_types = {'name': VARCHAR})", "select name, id, d from t1");
        Path byDate = dir.resolve(mode + "-by-date");
        modes.run(mode, "copy (" + T1 + ") to '" + byDate + "' (partition_by (d), format parquet)");
        assertSameRows("select id, k, name, amount, d, flag from read_parquet('" + byDate + "/*/*.parquet', hive_partitioning = true,"
                + " hive_types = {'d': DATE})", T1);
        assertNoStagingLeft();
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void quiverReadsItsOwnCopiesBack(Mode mode) throws SQLException {
        Path parts = dir.resolve(mode + "-parts");
        modes.run(mode, "copy (" + T1 + ") to '" + parts + "' (format parquet, partition_by (k, name))");
        assertThat(modes.run(mode, "select id, k, name, amount, d, flag from read_parquet('" + parts + "/*/*/*.parquet', hive_partitioning = true)")
                .rows()).containsExactlyInAnyOrderElementsOf(modes.run(mode, T1).rows());
        Path csv = dir.resolve(mode + "-t1.csv");
        modes.run(mode, "copy (" + T1 + ") to '" + csv + "' (delimiter ';')");
        assertThat(DuckDbOracle.normalize(modes.run(mode, "select * from read_csv('" + csv + "', delim = ';')").rows()))
                .containsExactlyInAnyOrderElementsOf(duckdb.query(T1));
        assertNoStagingLeft();
    }

    private void assertSameRows(String readBack, String source) throws SQLException {
        assertThat(DuckDbOracle.normalize(duckdb.queryValues(readBack))).as(readBack)
                .containsExactlyInAnyOrderElementsOf(duckdb.query(source));
    }

    private void assertNoStagingLeft() {
        try (Stream<Path> files = Files.walk(dir)) {
            assertThat(files.map(path -> path.getFileName().toString()).filter(name -> name.startsWith(".")).toList()).isEmpty();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
