package dev.quiver.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.cli.CliRunner.Run;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
}
