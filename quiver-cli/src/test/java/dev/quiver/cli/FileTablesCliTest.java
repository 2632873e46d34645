package dev.quiver.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.cli.CliRunner.Run;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code quiver tpch-gen} and {@code quiver sql --table / --tpch-dir} end to end, in-process. */
class FileTablesCliTest {
    @TempDir
    Path dir;

    @Test
    void generatesArrowFilesAndQueriesThemWithTpchDir() {
        Path out = dir.resolve("tpch");
        Run gen = CliRunner.run("tpch-gen", "--sf", "0.01", "--format", "arrow", "--out", out.toString(), "--files-per-table", "2");
        assertThat(gen.err()).isEmpty();
        assertThat(gen.exitCode()).isZero();
        assertThat(gen.out()).contains("lineitem", "60175", "Wrote 14 arrow files, 86805 rows");
        assertThat(out.resolve("lineitem").resolve("part-00000.arrow")).exists();
        assertThat(out.resolve("nation").resolve("nation.arrow")).exists();

        String sql = "select count(*) as n, sum(l_quantity) as q, max(o_orderdate) as d from lineitem join orders on l_orderkey = o_orderkey";
        Run query = CliRunner.run("sql", "--tpch-dir", out.toString(), "--format", "csv", sql);
        assertThat(query.err()).isEmpty();
        // the generator's own tables are the oracle
        Run generated = CliRunner.run("sql", "--tpch", "0.01", "--format", "csv", sql);
        assertThat(query.out()).startsWith("n,q,d\n60175,").isEqualTo(generated.out());
    }

    @Test
    void generatesCsvAndParquetAndRegistersSingleTables() {
        Path csv = dir.resolve("csv");
        Path parquet = dir.resolve("parquet");
        assertThat(CliRunner.run("tpch-gen", "--sf", "0.01", "--format", "csv", "--out", csv.toString()).exitCode()).isZero();
        assertThat(CliRunner.run("tpch-gen", "--sf", "0.01", "--format", "parquet", "--out", parquet.toString(), "--threads", "1").exitCode()).isZero();
        Run query = CliRunner.run("sql", "--format", "csv",
                "--table", "n=" + csv.resolve("nation").resolve("nation.csv"),
                "--table", "r=" + parquet.resolve("region"),
                "select r.r_name, count(*) as nations from n join r on n.n_regionkey = r.r_regionkey group by r.r_name order by r.r_name");
        assertThat(query.err()).isEmpty();
        assertThat(query.out()).isEqualTo("r_name,nations\nAFRICA,5\nAMERICA,5\nASIA,5\nEUROPE,5\nMIDDLE EAST,5\n");
    }

    @Test
    void badTablePathsAreOneLineErrors() throws IOException {
        Path missing = dir.resolve("missing.parquet");
        Run run = CliRunner.run("sql", "--table", "t=" + missing, "select 1");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).startsWith("Error: SOURCE_ERROR").contains(missing.toString());

        Path bad = Files.writeString(dir.resolve("bad.csv"), "a,b\n1\n");
        run = CliRunner.run("sql", "--table", "t=" + bad, "select * from t");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains("CSV file " + bad + " line 2: expected 2 fields");

        run = CliRunner.run("sql", "--tpch-dir", dir.toString(), "select 1");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains("has no table customer");

        run = CliRunner.run("tpch-gen", "--sf", "0.01", "--format", "orc", "--out", dir.toString());
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("'orc'");
    }

    /** A warning goes to stderr after the result, so that stdout holds the result alone; from an argument, -f and standard input alike. */
    @Test
    void ignoreErrorsWarnsOnStderrHowManyRowsItSkipped() throws IOException {
        Path bad = Files.writeString(dir.resolve("bad.csv"), "a,b\n1,2\n3\n4,x\n5,6,7\n8,9\n");
        String table = "read_csv('" + bad + "', columns = {'a': 'BIGINT', 'b': 'BIGINT'}, ignore_errors = true)";
        String sql = "select a, b from " + table + " order by a";
        String warning = "Warning: 3 rows of " + table + " skipped (ignore_errors = true): they do not read as the table's columns\n";
        Path file = Files.writeString(dir.resolve("q.sql"), sql + ";\n");
        for (Run run : List.of(CliRunner.run("sql", "--format", "csv", sql), CliRunner.run("sql", "--format", "csv", "-f", file.toString()),
                CliRunner.runWithStdin(sql, "sql", "--format", "csv"), CliRunner.run("sql", "--format", "csv", "--local-workers", "2", sql))) {
            assertThat(run.exitCode()).as(run.err()).isZero();
            assertThat(run.out()).isEqualTo("a,b\n1,2\n8,9\n");
            assertThat(run.err()).isEqualTo(warning);
        }
        Run clean = CliRunner.run("sql", "--format", "csv", "select count(*) as n from read_csv('" + dir.resolve("q.sql") + "', delim = '|', "
                + "header = false, ignore_errors = true)");
        assertThat(clean.out()).isEqualTo("n\n1\n");
        assertThat(clean.err()).isEmpty();
    }
}
