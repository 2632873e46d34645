package dev.quiver.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.config.EngineSettings;
import dev.quiver.engine.config.Settings;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.source.files.FileFormat;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class StatementParserTest {
    @Test
    void splitsOnSemicolonsOutsideQuotesAndComments() {
        String script = """
                -- header; with a semicolon
                create view revenue0 as select 1 as x; /* block; comment */
                select 'a;b', "odd;name" from t -- trailing; comment
                ;
                ;
                select 2
                """;
        assertThat(StatementParser.split(script)).hasSize(3)
                .satisfies(list -> {
                    assertThat(list.get(0)).startsWith("create view revenue0").endsWith("as x");
                    assertThat(list.get(1)).startsWith("select 'a;b', \"odd;name\" from t");
                    assertThat(list.get(2)).isEqualTo("select 2");
                });
    }

    @Test
    void explainTakesPostgresStyleOptions() {
        Optional<SessionSettings.ExplainFormat> dot = Optional.of(SessionSettings.ExplainFormat.DOT);
        assertThat(StatementParser.parse("EXPLAIN (FORMAT DOT) select 1")).isEqualTo(new Statement.Explain("select 1", false, dot));
        assertThat(StatementParser.parse("explain (analyze, format dot)\nselect 1")).isEqualTo(new Statement.Explain("select 1", true, dot));
        assertThat(StatementParser.parse("explain analyze (format text) select 1"))
                .isEqualTo(new Statement.Explain("select 1", true, Optional.of(SessionSettings.ExplainFormat.TEXT)));
        // a parenthesis without options is the query's own
        assertThat(StatementParser.parse("explain (select 1) union (select 2)"))
                .isEqualTo(new Statement.Explain("(select 1) union (select 2)", false, Optional.empty()));
        assertThat(StatementParser.parse("explain ((select 1))")).isEqualTo(new Statement.Explain("((select 1))", false, Optional.empty()));
        assertThat(StatementParser.parse("explainselect 1")).isEqualTo(new Statement.Query("explainselect 1"));
        assertThatThrownBy(() -> StatementParser.parse("explain (format svg) select 1"))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_ARGUMENT))
                .hasMessageContaining("EXPLAIN format 'svg' is not one of TEXT, DOT");
    }

    @Test
    void recognisesStatements() {
        assertThat(StatementParser.parse("select 1")).isEqualTo(new Statement.Query("select 1"));
        assertThat(StatementParser.parse("  explain  select 1;")).isEqualTo(new Statement.Explain("select 1", false));
        assertThat(StatementParser.parse("EXPLAIN ANALYZE\nselect 1")).isEqualTo(new Statement.Explain("select 1", true));
        assertThat(StatementParser.parse("set memory_limit = '2GiB'")).isEqualTo(new Statement.Set("memory_limit", "2GiB"));
        assertThat(StatementParser.parse("SET target_partitions TO 4")).isEqualTo(new Statement.Set("target_partitions", "4"));
        assertThat(StatementParser.parse("create or replace view v1 as\nselect 1 as x"))
                .isEqualTo(new Statement.CreateView("v1", "select 1 as x", true));
        assertThat(StatementParser.parse("CREATE VIEW \"My View\" AS VALUES (1)"))
                .isEqualTo(new Statement.CreateView("My View", "VALUES (1)", false));
        assertThat(StatementParser.parse("drop view if exists v1")).isEqualTo(new Statement.DropView("v1", true));
        assertThat(StatementParser.parse("DROP VIEW v1")).isEqualTo(new Statement.DropView("v1", false));
    }

    @Test
    void recognisesTableStatements() {
        assertThat(StatementParser.parse("show tables")).isEqualTo(new Statement.ShowTables());
        assertThat(StatementParser.parse("SHOW ALL TABLES")).isEqualTo(new Statement.ShowTables());
        assertThat(StatementParser.parse("describe t")).isEqualTo(new Statement.DescribeTable(List.of("t")));
        assertThat(StatementParser.parse("show columns from information_schema . \"tables\""))
                .isEqualTo(new Statement.DescribeTable(List.of("information_schema", "tables")));
        assertThat(StatementParser.parse("describe select 1 as x")).isEqualTo(new Statement.DescribeQuery("select 1 as x"));
        Statement.CreateMode plain = new Statement.CreateMode(false, false, false);
        assertThat(StatementParser.parse("create table t as select 1")).isEqualTo(new Statement.CreateTableAs("t", "select 1", plain));
        assertThat(StatementParser.parse("CREATE OR REPLACE TEMP TABLE t AS (select 1)"))
                .isEqualTo(new Statement.CreateTableAs("t", "(select 1)", new Statement.CreateMode(true, false, true)));
        assertThat(StatementParser.parse("create table if not exists t (a integer not null, b decimal(10, 2))"))
                .isInstanceOfSatisfying(Statement.CreateTable.class, create -> {
                    assertThat(create.mode()).isEqualTo(new Statement.CreateMode(false, true, false));
                    assertThat(create.columns().getFields()).hasSize(2);
                    assertThat(create.columns().getFields().get(0).isNullable()).isFalse();
                });
        assertThat(StatementParser.parse("insert into t values (1), (2)"))
                .isEqualTo(new Statement.Insert("t", Optional.empty(), "values (1), (2)", false));
        assertThat(StatementParser.parse("insert into t (a, \"B c\") select 1, 2"))
                .isEqualTo(new Statement.Insert("t", Optional.of(List.of("a", "B c")), "select 1, 2", false));
        assertThat(StatementParser.parse("insert into t by name select 1 as b"))
                .isEqualTo(new Statement.Insert("t", Optional.empty(), "select 1 as b", true));
        assertThat(StatementParser.parse("insert into t (select 1, 2)"))
                .isEqualTo(new Statement.Insert("t", Optional.empty(), "(select 1, 2)", false));
        assertThat(StatementParser.parse("copy (select (1) as x) to 'o''s.csv' (header false, delimiter ';')"))
                .isInstanceOfSatisfying(Statement.CopyTo.class, copy -> {
                    assertThat(copy.query()).isEqualTo("select (1) as x");
                    assertThat(copy.path()).isEqualTo("o's.csv");
                    assertThat(copy.options().writeOptions().csv().header()).isFalse();
                    assertThat(copy.options().writeOptions().csv().delimiter()).isEqualTo(';');
                });
        assertThat(StatementParser.parse("COPY t TO 'out' WITH (FORMAT 'parquet', PARTITION_BY (a, b))"))
                .isInstanceOfSatisfying(Statement.CopyTo.class, copy -> {
                    assertThat(copy.query()).isEqualTo("SELECT * FROM \"t\"");
                    assertThat(copy.options().format()).isEqualTo(FileFormat.PARQUET);
                    assertThat(copy.options().partitionBy()).containsExactly("a", "b");
                });
    }

    @Test
    void rejectsDmlAndEmptyStatements() {
        assertThatThrownBy(() -> StatementParser.parse("update t set x = 1"))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.NOT_SUPPORTED))
                .hasMessageContaining("UPDATE");
        assertThatThrownBy(() -> StatementParser.parse("delete from t"))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.NOT_SUPPORTED))
                .hasMessageContaining("DELETE");
        assertThatThrownBy(() -> StatementParser.parse("copy t from 'x.csv'"))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.NOT_SUPPORTED))
                .hasMessageContaining("INSERT INTO t SELECT");
        assertThatThrownBy(() -> StatementParser.parse("copy t to"))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.SYNTAX_ERROR));
        assertThatThrownBy(() -> StatementParser.parse(" -- nothing\n"))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.SYNTAX_ERROR));
    }

    @Test
    void settingsParseAndRejectUnknownNames() {
        Settings settings = SessionSettings.REGISTRY.defaults();
        assertThat(settings.with("MEMORY_LIMIT", "2GiB").get(SessionSettings.MEMORY_LIMIT)).isEqualTo(2L << 30);
        assertThat(settings.with("target_partitions", "8").get(EngineSettings.TARGET_PARTITIONS)).isEqualTo(8);
        assertThat(settings.with("batch_size", "100").get(EngineSettings.BATCH_SIZE)).isEqualTo(100);
        assertThatThrownBy(() -> settings.with("parallelism", "3"))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_CONFIGURATION))
                .hasMessageContaining("target_partitions, batch_size, division_by_zero, spill_enabled, spill_directory, spill_compression, memory_limit, explain_format");
        assertThatThrownBy(() -> settings.with("batch_size", "lots"))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_CONFIGURATION));
        assertThatThrownBy(() -> settings.with("target_partitions", "0"))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_CONFIGURATION));
    }
}
