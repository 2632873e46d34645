package dev.quiver.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.source.files.FileFormat;
import dev.quiver.engine.source.files.FileTables;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** CREATE EXTERNAL TABLE, DROP TABLE and registered tables through a session. */
class ExternalTableTest {
    @TempDir
    Path directory;

    private QuerySession session;
    private Path sales;

    @BeforeEach
    void open() throws IOException {
        session = QuerySession.builder().catalog(TestTables.catalog()).targetPartitions(2).build();
        sales = directory.resolve("sales.csv");
        Files.writeString(sales, """
                region,amount,sold_on,note
                north,12.50,2024-01-02,first
                south,3.25,2024-01-03,"with, comma"
                north,,2024-02-01,
                west,7.00,2024-02-02,"say ""hi\"""
                """);
    }

    @AfterEach
    void close() {
        assertThat(session.memoryPool().used()).isZero();
        session.close();
    }

    @Test
    void createsACsvTableWithInferredColumnsAndQueriesIt() {
        session.execute("CREATE EXTERNAL TABLE sales STORED AS CSV LOCATION '" + sales + "'").close();
        assertThat(session.catalog().tableNames()).contains("sales", "t1");
        QueryResult result = session.executeScript("select region, sum(amount) as total, count(*) as n from sales group by region order by region");
        assertThat(result.rows()).containsExactly(
                List.of("north", new BigDecimal("12.50"), 2L),
                List.of("south", new BigDecimal("3.25"), 1L),
                List.of("west", new BigDecimal("7.00"), 1L));
        assertThat(session.executeScript("select note from sales where sold_on >= date '2024-02-01' order by note nulls first").rows())
                .containsExactly(Arrays.asList((Object) null), List.of("say \"hi\""));
    }

    @Test
    void givenColumnsNameAndTypeTheCsvColumnsAndTheFormatComesFromTheExtension() {
        session.execute("create external table s (r varchar, amount double, d date not null, n varchar) location '" + sales + "'").close();
        QueryResult result = session.executeScript("select r, amount from s where amount > 5 order by amount");
        assertThat(result.columnNames()).containsExactly("r", "amount");
        assertThat(result.rows()).containsExactly(List.of("west", 7.0), List.of("north", 12.5));
    }

    @Test
    void joinsAFileTableWithTheBaseCatalogAndDropsIt() throws IOException {
        Path ids = directory.resolve("ids");
        Files.createDirectories(ids);
        Files.writeString(ids.resolve("a.csv"), "id,label\n1,one\n");
        Files.writeString(ids.resolve("b.csv"), "id,label\n2,two\n");
        session.execute("CREATE EXTERNAL TABLE labels STORED AS CSV LOCATION '" + ids + "'").close();
        assertThat(session.executeScript("select count(*) from labels").rows()).containsExactly(List.of(2L));
        session.execute("DROP TABLE labels").close();
        assertThatThrownBy(() -> session.executeScript("select * from labels"))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.TABLE_NOT_FOUND));
        session.execute("DROP TABLE IF EXISTS labels").close();
        assertThatThrownBy(() -> session.execute("DROP TABLE labels"))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.TABLE_NOT_FOUND));
        assertThatThrownBy(() -> session.execute("DROP TABLE t1"))
                .isInstanceOf(QuiverException.class).hasMessageContaining("cannot be dropped");
    }

    @Test
    void existingNamesNeedOrReplaceOrIfNotExists() {
        session.execute("CREATE EXTERNAL TABLE s LOCATION '" + sales + "'").close();
        assertThatThrownBy(() -> session.execute("CREATE EXTERNAL TABLE s LOCATION '" + sales + "'"))
                .isInstanceOf(QuiverException.class).hasMessageContaining("already exists");
        session.execute("CREATE EXTERNAL TABLE IF NOT EXISTS s LOCATION '" + directory.resolve("missing.csv") + "'").close();
        session.execute("CREATE OR REPLACE EXTERNAL TABLE s (a varchar, b varchar, c varchar, d varchar) LOCATION '" + sales + "'").close();
        assertThat(session.executeScript("select b from s where a = 'south'").rows()).containsExactly(List.of("3.25"));
        assertThatThrownBy(() -> session.execute("CREATE EXTERNAL TABLE t1 LOCATION '" + sales + "'"))
                .isInstanceOf(QuiverException.class).hasMessageContaining("'t1' is a table of the session's catalog");
        session.execute("CREATE VIEW v AS select 1 as x").close();
        assertThatThrownBy(() -> session.execute("CREATE EXTERNAL TABLE v LOCATION '" + sales + "'"))
                .isInstanceOf(QuiverException.class).hasMessageContaining("'v' is a view");
        assertThatThrownBy(() -> session.execute("CREATE VIEW s AS select 1 as x"))
                .isInstanceOf(QuiverException.class).hasMessageContaining("is a table");
    }

    @Test
    void badInputIsOneClearErrorAndTheSessionStaysUsable() throws IOException {
        Path missing = directory.resolve("nowhere.parquet");
        assertThatThrownBy(() -> session.execute("CREATE EXTERNAL TABLE x STORED AS PARQUET LOCATION '" + missing + "'"))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.SOURCE_ERROR))
                .hasMessageContaining(missing.toString());
        Path notArrow = Files.writeString(directory.resolve("x.arrow"), "hello");
        assertThatThrownBy(() -> session.execute("CREATE EXTERNAL TABLE x LOCATION '" + notArrow + "'"))
                .isInstanceOf(QuiverException.class).hasMessageContaining("cannot read Arrow IPC file " + notArrow);
        assertThatThrownBy(() -> session.execute("CREATE EXTERNAL TABLE x STORED AS ORC LOCATION '" + sales + "'"))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                .hasMessageContaining("'ORC'");
        assertThatThrownBy(() -> session.execute("CREATE EXTERNAL TABLE x (a blob) LOCATION '" + sales + "'"))
                .isInstanceOf(QuiverException.class).hasMessageContaining("'blob'");
        Path bad = Files.writeString(directory.resolve("bad.csv"), "a,b\n1,2\n3,x\n");
        session.execute("CREATE EXTERNAL TABLE bad (a bigint, b bigint) LOCATION '" + bad + "'");
        assertThatThrownBy(() -> session.executeScript("select sum(b) from bad"))
                .isInstanceOf(QuiverException.class)
                .hasMessageContaining("CSV file " + bad + " line 3, column 'b': 'x' is not an integer");
        assertThat(session.executeScript("select count(*) from t1").rows()).containsExactly(List.of(10L));
    }

    @Test
    void registersTablesFromCode() {
        session.registerTable(FileTables.open("from_code", sales, Optional.of(FileFormat.CSV), Optional.empty()));
        assertThat(session.executeScript("select count(*) from FROM_CODE").rows()).containsExactly(List.of(4L));
    }
}
