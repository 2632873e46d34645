package dev.quiver.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writes that cannot be done fail with one clear line, leave nothing half-written (no file, no
 * staging file, no rows, no memory) and keep the session usable.
 */
class TableWritesBadInputTest {
    @TempDir
    Path dir;
    private QuerySession session;

    @BeforeEach
    void open() {
        session = QuerySession.builder().catalog(TestTables.catalog()).targetPartitions(2).batchSize(4).build();
        session.executeScript("create table nums (n integer not null, s varchar, d date)");
        session.executeScript("insert into nums values (1, 'one', date '2024-01-01'), (2, 'two', null)");
    }

    @AfterEach
    void close() {
        session.executeScript("drop table if exists nums");
        assertThat(session.memoryPool().used()).isZero();
        session.close();
    }

    @Test
    void copyToADirectoryThatCannotBeWritten() throws IOException {
        Path locked = Files.createDirectory(dir.resolve("locked"));
        Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("r-xr-xr-x"));
        // root writes anywhere a permission bit forbids; sysfs refuses new files to everyone
        Path unwritable = Files.isWritable(locked) ? Path.of("/sys") : locked;
        try {
            for (String options : List.of("(format parquet)", "(format csv)", "(format parquet, partition_by (k))")) {
                String sql = "copy t1 to '" + unwritable.resolve("out") + "' " + options;
                assertOneLineError(sql, ErrorCode.SOURCE_ERROR, unwritable.toString());
            }
            assertThat(list(locked)).isEmpty();
        } finally {
            Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        assertOneLineError("copy t1 to '" + dir.resolve("missing/out.parquet") + "'", ErrorCode.SOURCE_ERROR, "does not exist");
        assertThat(list(dir)).containsExactly(locked);
    }

    @Test
    void aCopyThatFailsMidwayLeavesNoFile() throws IOException {
        // t1's id 5 divides by zero in its second batch of four rows
        for (String target : List.of("out.parquet", "out.csv")) {
            assertOneLineError("copy (select id, 10 / (id - 5) as x from t1) to '" + dir.resolve(target) + "'", ErrorCode.DIVISION_BY_ZERO, "zero");
        }
        assertOneLineError("copy (select id, k, 10 / (id - 5) as x from t1) to '" + dir.resolve("parts") + "' (partition_by (k))",
                ErrorCode.DIVISION_BY_ZERO, "zero");
        assertThat(list(dir)).isEmpty();
        assertThat(session.executeScript("copy t1 to '" + dir.resolve("ok.parquet") + "'").rows()).containsExactly(List.of(10L));
        assertThat(list(dir)).containsExactly(dir.resolve("ok.parquet"));
    }

    @Test
    void aCancelledOrAbandonedWriteLeavesNothing() throws IOException {
        for (String sql : List.of("copy t1 to '" + dir.resolve("out.parquet") + "'", "copy t1 to '" + dir.resolve("parts") + "' (partition_by (k))",
                "insert into nums select id, name, d from t1", "create table later as select * from t1")) {
            try (QueryHandle handle = session.execute(sql)) {
                handle.cancel();
                assertThatThrownBy(() -> handle.stream().next()).as(sql)
                        .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.QUERY_CANCELLED));
            }
            // a handle closed before its results were read never writes
            session.execute(sql).close();
        }
        assertThat(list(dir)).isEmpty();
        assertRows(2);
        assertOneLineError("select * from later", ErrorCode.TABLE_NOT_FOUND, "later");
    }

    @Test
    void aPartitionedCopyIntoADirectoryInUse() throws IOException {
        Path parts = dir.resolve("parts");
        session.executeScript("copy t1 to '" + parts + "' (partition_by (flag))");
        List<Path> first = list(parts);
        assertOneLineError("copy t1 to '" + parts + "' (partition_by (flag))", ErrorCode.INVALID_ARGUMENT, "OVERWRITE");
        assertThat(list(parts)).isEqualTo(first);
        session.executeScript("copy (select * from t1 where flag) to '" + parts + "' (partition_by (flag), overwrite)");
        assertThat(list(parts)).containsExactly(parts.resolve("flag=true"));
        session.executeScript("copy (select * from t1 where not flag) to '" + parts + "' (partition_by (flag), overwrite_or_ignore)");
        assertThat(list(parts)).containsExactly(parts.resolve("flag=false"), parts.resolve("flag=true"));
        assertOneLineError("copy t1 to '" + parts + "' (partition_by (nosuch))", ErrorCode.COLUMN_NOT_FOUND, "nosuch");
        assertOneLineError("copy t1 to '" + parts + ".csv' (format parquet, header true)", ErrorCode.INVALID_ARGUMENT, "HEADER");
        assertOneLineError("copy t1 to '" + parts + ".csv' (colour red)", ErrorCode.INVALID_ARGUMENT, "COLOUR");
        assertOneLineError("copy t1 to '" + dir + "'", ErrorCode.INVALID_ARGUMENT, "is a directory");
    }

    @Test
    void insertOfTheWrongColumnCount() {
        assertOneLineError("insert into nums values (3)", ErrorCode.INVALID_ARGUMENT, "has 3 columns but the query gives 1");
        assertOneLineError("insert into nums (n, s) values (3, 'x', 4)", ErrorCode.INVALID_ARGUMENT, "names 2 columns but the query gives 3");
        assertOneLineError("insert into nums (n, nosuch) values (3, 'x')", ErrorCode.COLUMN_NOT_FOUND, "nosuch");
        assertRows(2);
    }

    @Test
    void insertOfTheWrongType() {
        assertOneLineError("insert into nums values (date '2024-01-01', 'x', null)", ErrorCode.TYPE_MISMATCH, "column n is INTEGER");
        assertOneLineError("insert into nums values (3, 'x', 7)", ErrorCode.TYPE_MISMATCH, "column d is DATE");
        assertOneLineError("insert into nums values ('three', 'x', null)", ErrorCode.INVALID_CAST, "three");
        // the first two batches of four rows cast, the third does not: none of them stays
        assertOneLineError("insert into nums select case when id < 9 then cast(id as varchar) else 'nine' end, name, d from t1",
                ErrorCode.INVALID_CAST, "nine");
        assertOneLineError("insert into nums (s) values ('no n')", ErrorCode.INVALID_ARGUMENT, "NOT NULL constraint failed: nums.n");
        assertRows(2);
        assertThat(session.executeScript("insert into nums values ('3', 3, '2024-03-03')").rows()).containsExactly(List.of(1L));
        assertRows(3);
    }

    @Test
    void createAndDropNamesThatDoNotFit() {
        session.executeScript("create view v as select 1 as one");
        assertOneLineError("create table nums (x integer)", ErrorCode.INVALID_ARGUMENT, "Table 'nums' already exists");
        assertOneLineError("create table nums as select 1 as x", ErrorCode.INVALID_ARGUMENT, "Table 'nums' already exists");
        assertOneLineError("create table t1 (x integer)", ErrorCode.INVALID_ARGUMENT, "already exists");
        assertOneLineError("create or replace table t1 as select 1 as x", ErrorCode.INVALID_ARGUMENT, "t1");
        assertOneLineError("create table v (x integer)", ErrorCode.INVALID_ARGUMENT, "'v' is a view");
        assertOneLineError("create table two as select 1 as x, 2 as x", ErrorCode.INVALID_ARGUMENT, "two columns named x");
        assertOneLineError("drop table nosuch", ErrorCode.TABLE_NOT_FOUND, "Table 'nosuch' does not exist");
        assertOneLineError("drop table v", ErrorCode.INVALID_ARGUMENT, "use DROP VIEW");
        assertOneLineError("drop view nums", ErrorCode.INVALID_ARGUMENT, "use DROP TABLE");
        assertOneLineError("drop view nosuch", ErrorCode.TABLE_NOT_FOUND, "View 'nosuch' does not exist");
        assertOneLineError("insert into t1 select * from t1", ErrorCode.NOT_SUPPORTED, "CREATE TABLE");
        assertOneLineError("insert into v values (1)", ErrorCode.INVALID_ARGUMENT, "is a view");
        assertOneLineError("insert into nosuch values (1)", ErrorCode.TABLE_NOT_FOUND, "nosuch");
        session.executeScript("drop table if exists nosuch; create table if not exists nums (x integer); drop view v");
        assertThat(session.executeScript("describe nums").rows()).hasSize(3);
        assertRows(2);
    }

    @Test
    void tablesAreAccountedInThePoolAndReleasedByDrop() {
        long before = session.memoryPool().used();
        assertThat(before).isPositive();
        session.executeScript("create table copy as select * from t1");
        long withCopy = session.memoryPool().used();
        assertThat(withCopy).isGreaterThan(before);
        session.executeScript("insert into copy select * from copy");
        assertThat(session.memoryPool().used()).isGreaterThan(withCopy);
        session.executeScript("drop table copy");
        assertThat(session.memoryPool().used()).isEqualTo(before);
        session.executeScript("set memory_limit = '" + (before + 100) + "'");
        assertOneLineError("create table big as select * from t1", ErrorCode.EXCEEDED_MEMORY_LIMIT, "table big");
        assertOneLineError("set memory_limit = '10'", ErrorCode.EXCEEDED_MEMORY_LIMIT, "drop tables first");
        assertThat(session.memoryPool().used()).isEqualTo(before);
        assertOneLineError("select * from big", ErrorCode.TABLE_NOT_FOUND, "big");
        session.executeScript("set memory_limit = 'unlimited'");
    }

    @Test
    void aQueryThatStartedBeforeADropFinishesOrFailsCleanly() {
        try (QueryHandle reading = session.execute("select n from nums")) {
            session.executeScript("drop table nums");
            assertThatThrownBy(() -> {
                var stream = reading.stream();
                var batch = stream.next();
                while (batch != null) {
                    batch.close();
                    batch = stream.next();
                }
            }).isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.TABLE_NOT_FOUND))
                    .hasMessageContaining("dropped");
        }
    }

    private void assertRows(long rows) {
        assertThat(session.executeScript("select count(*) from nums").rows()).containsExactly(List.of(rows));
    }

    private void assertOneLineError(String sql, ErrorCode code, String text) {
        assertThatThrownBy(() -> session.executeScript(sql)).as(sql)
                .isInstanceOfSatisfying(QuiverException.class, e -> {
                    assertThat(e.errorCode()).as(sql + ": " + e.getMessage()).isEqualTo(code);
                    assertThat(e.getMessage()).as(sql).contains(text).doesNotContain("\n");
                });
        assertThat(session.executeScript("select count(*) from t1").rows()).containsExactly(List.of(10L));
    }

    private static List<Path> list(Path directory) {
        try (Stream<Path> files = Files.list(directory)) {
            return files.sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
