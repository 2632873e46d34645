package dev.quiver.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.distributed.config.DistributedSettings;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --catalog DIR}: views, external tables and stored tables outlive the session that made
 * them, and equal DuckDB's after the same statements; TEMP tables do not; one session (in any
 * process) holds a directory at a time; a directory that cannot be written fails clearly; what a
 * crash left half-written is cleaned away.
 */
class CatalogDirectoryTest {
    private static final List<String> STATEMENTS = List.of(
            "create table a as select id, k, name, amount, d from t1 where id > 2",
            "insert into a values (100, 7, 'new', 1.25, date '2020-02-02')",
            "create table b (x integer not null, s varchar)",
            "insert into b select qty, v from t2 where qty is not null",
            "insert into b values (99, null)",
            "create view big as select * from a where amount > 5",
            "create or replace table c as select k, count(*) as n from a group by k",
            "create temp table scratch as select 1 as one");
    private static final List<String> CHECKS = List.of(
            "select * from a order by id",
            "select * from b order by x",
            "select * from big order by id",
            "select * from c order by k nulls first",
            "select a.name, b.s from a join b on a.id = b.x order by 1, 2");

    @TempDir
    Path dir;

    private QuerySession open(Path catalogDirectory) {
        return QuerySession.builder().catalog(TestTables.catalog()).targetPartitions(2).batchSize(3).catalogDirectory(catalogDirectory).build();
    }

    @Test
    void tablesAndViewsOutliveTheSessionAsInDuckDb() throws SQLException {
        Path catalogDirectory = dir.resolve("db");
        Path file = dir.resolve("t2.parquet");
        try (QuerySession first = open(catalogDirectory)) {
            STATEMENTS.forEach(first::executeScript);
            first.executeScript("copy t2 to '" + file + "'; create external table ext location '" + file + "'");
        }
        try (DuckDbOracle duckdb = new DuckDbOracle(TestTables.catalog()); QuerySession second = open(catalogDirectory)) {
            for (String sql : STATEMENTS) {
                try (Statement statement = duckdb.connection().createStatement()) {
                    statement.execute(sql);
                }
            }
            for (String sql : CHECKS) {
                assertThat(DuckDbOracle.normalize(second.executeScript(sql).rows())).as(sql).isEqualTo(duckdb.query(sql));
            }
            assertThat(second.executeScript("show tables").rows()).containsExactly(
                    List.of("a"), List.of("b"), List.of("big"), List.of("c"), List.of("empty_t"), List.of("ext"), List.of("t1"), List.of("t2"));
            assertThat(second.executeScript("describe b").rows().get(0)).containsExactly("x", "INTEGER", "NO", null, null, null);
            assertThat(second.executeScript("select count(*) from ext").rows()).containsExactly(List.of(7L));
            assertThat(second.executeScript("select table_name, is_insertable_into from information_schema.tables where table_name in ('a', 'ext')"
                    + " order by 1").rows()).containsExactly(List.of("a", "YES"), List.of("ext", "NO"));
            // a NOT NULL column stays NOT NULL
            assertThatThrownBy(() -> second.executeScript("insert into b values (null, 'x')"))
                    .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_ARGUMENT));
            second.executeScript("insert into b values (7, 'seven'); drop table c; drop view big");
        }
        try (QuerySession third = open(catalogDirectory)) {
            assertThat(third.executeScript("select count(*) from b where x = 7").rows()).containsExactly(List.of(2L));
            assertThatThrownBy(() -> third.executeScript("select * from c"))
                    .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.TABLE_NOT_FOUND));
            assertThat(third.views()).isEmpty();
            assertThat(third.memoryPool().used()).as("stored tables hold no pool memory").isZero();
        }
        assertThat(tableDirectories(catalogDirectory)).as("dropped and replaced tables left no files").hasSize(2);
    }

    @Test
    void storedTablesReadOnWorkers() {
        Path catalogDirectory = dir.resolve("db");
        try (QuerySession first = open(catalogDirectory)) {
            first.executeScript("create table a as select * from t1");
        }
        try (QuerySession cluster = QuerySession.builder().catalog(TestTables.catalog()).targetPartitions(2).localWorkers(2)
                .set(DistributedSettings.BYTES_PER_PARTITION_FOR_SCANS, 1L).catalogDirectory(catalogDirectory).build()) {
            assertThat(cluster.executeScript("select k, count(*) from a group by k order by k nulls first").rows())
                    .isEqualTo(cluster.executeScript("select k, count(*) from t1 group by k order by k nulls first").rows());
            cluster.executeScript("insert into a select * from t1");
            assertThat(cluster.executeScript("select count(*) from a").rows()).containsExactly(List.of(20L));
        }
    }

    @Test
    void oneSessionAtATimeInThisProcess() {
        Path catalogDirectory = dir.resolve("db");
        try (QuerySession first = open(catalogDirectory)) {
            assertThatThrownBy(() -> open(catalogDirectory))
                    .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_CONFIGURATION))
                    .hasMessageContaining("in use by another session of this process");
            assertThat(first.executeScript("select count(*) from t1").rows()).containsExactly(List.of(10L));
        }
        open(catalogDirectory).close();
    }

    @Test
    void aSecondProcessIsRefused() throws IOException, InterruptedException {
        Path catalogDirectory = dir.resolve("db");
        Process holder = new ProcessBuilder(JavaCommand.of(CatalogLockHolder.class, catalogDirectory.toString()))
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try {
            BufferedReader output = new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
            assertThat(output.readLine()).isEqualTo("ready");
            assertThatThrownBy(() -> open(catalogDirectory))
                    .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_CONFIGURATION))
                    .hasMessageContaining("in use by another Quiver process (pid " + holder.pid() + ")")
                    .hasMessageNotContaining("\n");
        } finally {
            holder.getOutputStream().close();
            assertThat(holder.waitFor(60, TimeUnit.SECONDS)).isTrue();
        }
        open(catalogDirectory).close();
    }

    @Test
    void aDirectoryThatCannotBeWritten() throws IOException {
        Path locked = Files.createDirectory(dir.resolve("locked"));
        Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("r-xr-xr-x"));
        try {
            // root writes anywhere a permission bit forbids; sysfs refuses new files to everyone
            Path parent = Files.isWritable(locked) ? Path.of("/sys") : locked;
            assertThatThrownBy(() -> open(parent.resolve("db")))
                    .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_CONFIGURATION))
                    .hasMessageContaining(parent.resolve("db").toString()).hasMessageContaining("cannot be created or written");
        } finally {
            Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        Path aFile = Files.writeString(dir.resolve("a-file"), "x");
        assertThatThrownBy(() -> open(aFile))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_CONFIGURATION))
                .hasMessageContaining("is a file");
    }

    @Test
    void whatACrashLeftHalfWrittenIsCleanedAway() throws IOException {
        Path catalogDirectory = dir.resolve("db");
        try (QuerySession first = open(catalogDirectory)) {
            first.executeScript("create table a as select * from t1");
        }
        Path tables = catalogDirectory.resolve("tables");
        Path table = tableDirectories(catalogDirectory).get(0);
        Files.createDirectory(tables.resolve(".b-12345678.tmp-deadbeef"));
        Files.createDirectory(tables.resolve("unlisted-0000"));
        Files.writeString(table.resolve(".part-1.parquet.tmp-cafebabe"), "half a file");
        try (QuerySession second = open(catalogDirectory)) {
            assertThat(second.executeScript("select count(*) from a").rows()).containsExactly(List.of(10L));
        }
        assertThat(list(tables)).containsExactly(table);
        assertThat(list(table)).allMatch(file -> file.getFileName().toString().startsWith("part-"));
    }

    @Test
    void tablesWhoseFilesAreGoneStayDescribableAndDroppable() throws IOException {
        Path catalogDirectory = dir.resolve("db");
        Path file = dir.resolve("t1.parquet");
        try (QuerySession first = open(catalogDirectory)) {
            first.executeScript("copy t1 to '" + file + "'; create external table ext location '" + file + "'");
        }
        Files.delete(file);
        try (QuerySession second = open(catalogDirectory)) {
            assertThat(second.executeScript("describe ext").rows()).hasSize(6);
            assertThatThrownBy(() -> second.executeScript("select * from ext"))
                    .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.SOURCE_ERROR))
                    .hasMessageContaining(file.toString());
            second.executeScript("drop table ext");
        }
        try (QuerySession third = open(catalogDirectory)) {
            assertThat(third.executeScript("show tables").rows()).doesNotContain(List.of("ext"));
        }
    }

    @Test
    void externalTablesKeepTheirOptionsAndAnAbsoluteLocation() throws IOException {
        Path csv = Files.writeString(dir.resolve("semi.txt"), "a;b\n1;x\n2;NA\n");
        Path catalogDirectory = dir.resolve("db");
        try (QuerySession first = open(catalogDirectory)) {
            first.executeScript("create external table semi stored as csv location '" + csv + "' options (delim ';', nullstr 'NA')");
        }
        try (QuerySession second = open(catalogDirectory)) {
            assertThat(second.executeScript("select a, b from semi order by a").rows()).containsExactly(List.of(1L, "x"), Arrays.asList(2L, null));
        }
        assertThat(CatalogPersistence.absoluteLocation("create external table t location 'data/x.csv' options (delim ';'); -- note"))
                .isEqualTo("create external table t location '" + Path.of("data/x.csv").toAbsolutePath() + "' options (delim ';')");
        assertThat(CatalogPersistence.absoluteLocation("create external table t location 's3://bucket/x.parquet'"))
                .isEqualTo("create external table t location 's3://bucket/x.parquet'");
    }

    private static List<Path> tableDirectories(Path catalogDirectory) {
        return list(catalogDirectory.resolve("tables"));
    }

    private static List<Path> list(Path directory) {
        try (Stream<Path> files = Files.list(directory)) {
            return files.sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
