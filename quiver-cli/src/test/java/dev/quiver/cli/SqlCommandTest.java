package dev.quiver.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.cli.CliRunner.Run;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code quiver sql} end to end, in-process: SQL in, formatted rows out. */
class SqlCommandTest {
    @Test
    void countsLineitemAtSf001() {
        Run run = CliRunner.run("sql", "--tpch", "0.01", "--format", "csv", "select count(*) as n from lineitem");
        assertThat(run.err()).isEmpty();
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).isEqualTo("n\n60175\n");
    }

    @Test
    void setOptionsAreTheSessionsSettingsAsShownAndRead() {
        Run run = CliRunner.run("sql", "--format", "csv", "--set", "distributed.compression=zstd", "--set", "BATCH_SIZE=100", "--partitions", "3",
                "select current_setting('distributed.compression') as codec, current_setting('batch_size') as b, current_setting('target_partitions') as p");
        assertThat(run.err()).isEmpty();
        assertThat(run.out()).isEqualTo("codec,b,p\nzstd,100,3\n");
        Run shown = CliRunner.run("sql", "--format", "csv", "--set", "distributed.sample_bytes_per_partition=2MiB", "SHOW SETTINGS");
        assertThat(shown.exitCode()).isZero();
        assertThat(shown.out()).startsWith("name,value,type,default,description\n")
                .contains("\ndistributed.sample_bytes_per_partition,2MiB,size,1MiB,")
                .contains("\nmemory_limit,3GiB,size or unlimited,");
    }

    @Test
    void aBadSetOptionIsTheErrorOfSet() {
        Run run = CliRunner.run("sql", "--set", "distributed.max_tasks_per_stage=-2", "select 1");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).isEqualTo("Error: INVALID_CONFIGURATION: Invalid value '-2' for setting distributed.max_tasks_per_stage: "
                + "expected a whole number, at least 0\n");
    }

    @Test
    void unaliasedColumnsAreNamedAfterTheirExpressions() {
        Run run = CliRunner.run("sql", "--tpch", "0.01", "--format", "csv",
                "select n_regionkey, count(*), sum(n_nationkey) from nation group by n_regionkey order by 1 limit 1");
        assertThat(run.err()).isEmpty();
        assertThat(run.out()).isEqualTo("n_regionkey,count_star(),sum(n_nationkey)\n0,5,50\n");
    }

    @Test
    void scriptFromStdinPrintsEveryResult() {
        String script = """
                -- African nations, through a view
                create view african as select n_name, n_regionkey from nation where n_regionkey = 0;
                select n_name from african order by n_name;
                select count(*) as n from african; select 'x;y' as s
                """;
        Run run = CliRunner.runWithStdin(script, "sql", "--tpch", "0.01", "--format", "csv", "--partitions", "1");
        assertThat(run.err()).isEmpty();
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).isEqualTo("n_name\nALGERIA\nETHIOPIA\nKENYA\nMOROCCO\nMOZAMBIQUE\nn\n5\ns\nx;y\n");
    }

    @Test
    void scriptInTableFormatPrintsEachResultWithItsFooter() {
        Run run = CliRunner.runWithStdin("set batch_size = 10; select 1 as one; select 2 as two, 3 as three;", "sql");
        assertThat(run.err()).isEmpty();
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).matches("""
                OK \\(\\d+\\.\\d{3} s\\)
                 one
                -----
                   1
                \\(1 row, \\d+\\.\\d{3} s\\)
                 two \\| three
                -----\\+-------
                   2 \\|     3
                \\(1 row, \\d+\\.\\d{3} s\\)
                """);
    }

    @Test
    void aFailingStatementStopsTheScriptAfterTheResultsBeforeIt(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("script.sql");
        Files.writeString(file, "select 1 as one;\nselect 2 as two;\nselect * from\n  no_such_table;\nselect 3 as three;\n", StandardCharsets.UTF_8);
        Run run = CliRunner.run("sql", "--format", "csv", "-f", file.toString());
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.out()).isEqualTo("one\n1\ntwo\n2\n");
        assertThat(run.err()).startsWith("Error: TABLE_NOT_FOUND: ").contains("line 4, column 3");
        assertThat(run.err().lines()).hasSize(1);
    }

    @Test
    void aScriptOfOnlyCommentsIsAnError() {
        Run run = CliRunner.runWithStdin("-- nothing here\n;\n", "sql");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).isEqualTo("Error: SYNTAX_ERROR: The script holds no statement\n");
    }

    @Test
    void scriptFromFileInJson(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("q.sql");
        Files.writeString(file, "select r_regionkey, r_name from region where r_regionkey < 2 order by r_regionkey;\n",
                StandardCharsets.UTF_8);
        Run run = CliRunner.run("sql", "--tpch", "0.01", "--format", "json", "-f", file.toString());
        assertThat(run.err()).isEmpty();
        assertThat(run.out()).isEqualTo("""
                {"r_regionkey":0,"r_name":"AFRICA"}
                {"r_regionkey":1,"r_name":"AMERICA"}
                """);
    }

    @Test
    void csvRendersDecimalsDatesNullsAndQuotesFromTheEngine() {
        Run run = CliRunner.run("sql", "--format", "csv",
                "select cast(1.5 as decimal(10,2)) as d, date '1998-12-01' as dt, cast(null as integer) as n, 'a,b' as s");
        assertThat(run.err()).isEmpty();
        assertThat(run.out()).isEqualTo("d,dt,n,s\n1.50,1998-12-01,,\"a,b\"\n");
    }

    @Test
    void tableFormatIsTheDefault() {
        Run run = CliRunner.run("sql", "--tpch", "0.01",
                "select n_nationkey, n_name from nation where n_nationkey in (1, 2) order by n_nationkey");
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).startsWith(String.join("\n",
                " n_nationkey | n_name",
                "-------------+-----------",
                "           1 | ARGENTINA",
                "           2 | BRAZIL",
                "(2 rows, "));
    }

    @Test
    void unknownTableExits1WithOneLine() {
        Run run = CliRunner.run("sql", "--tpch", "0.01", "select * from no_such_table");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).startsWith("Error: TABLE_NOT_FOUND: ").containsIgnoringCase("no_such_table");
        assertThat(run.err().lines()).hasSize(1);
    }

    @Test
    void syntaxErrorNamesLineAndColumn() {
        Run run = CliRunner.run("sql", "select 1\nfrom where");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).startsWith("Error: SYNTAX_ERROR: ").contains("line 2, column");
        assertThat(run.err().lines()).hasSize(1);
    }

    @Test
    void memoryLimitTooSmallIsAnErrorNotACrash() {
        Run run = CliRunner.run("sql", "--tpch", "0.01", "--memory-limit", "64KiB", "--format", "csv",
                "select l_orderkey, count(*) from lineitem group by l_orderkey order by 2 desc limit 1");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).startsWith("Error: EXCEEDED_MEMORY_LIMIT: ");
    }

    @Test
    void csvStreamsALargeResult() {
        Run run = CliRunner.run("sql", "--tpch", "0.01", "--format", "csv", "select l_orderkey, l_linenumber, l_shipdate from lineitem");
        assertThat(run.err()).isEmpty();
        assertThat(run.exitCode()).isZero();
        assertThat(run.out().lines().count()).isEqualTo(60175 + 1);
        assertThat(run.out()).startsWith("l_orderkey,l_linenumber,l_shipdate\n");
        assertThat(run.out().lines().skip(1).allMatch(line -> line.matches("\\d+,\\d,\\d{4}-\\d{2}-\\d{2}"))).isTrue();
    }

    @Test
    void closedOutputStopsTheQueryQuietly() {
        // a reader that goes away after the first kilobyte, like `| head`
        Writer closing = new Writer() {
            private int written;

            @Override
            public void write(char[] text, int offset, int length) throws IOException {
                written += length;
                if (written > 1024) {
                    throw new IOException("Broken pipe");
                }
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        Run run = CliRunner.runWithOut("", closing, "sql", "--tpch", "0.01", "--format", "csv", "select * from lineitem");
        assertThat(run.err()).isEmpty();
        assertThat(run.exitCode()).isZero();
    }

    @Test
    void statementWithoutColumnsPrintsOkOrNothing() {
        Run table = CliRunner.run("sql", "set batch_size = 100");
        assertThat(table.exitCode()).isZero();
        assertThat(table.out()).matches("OK \\(\\d+\\.\\d{3} s\\)\n");

        Run csv = CliRunner.run("sql", "--format", "csv", "set batch_size = 100;");
        assertThat(csv.exitCode()).isZero();
        assertThat(csv.out()).isEmpty();
    }

    @Test
    void fileDashIsStandardInput() {
        Run run = CliRunner.runWithStdin("select 1 as one", "sql", "-f", "-", "--format", "csv");
        assertThat(run.err()).isEmpty();
        assertThat(run.out()).isEqualTo("one\n1\n");
    }
}
