package dev.quiver.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.cli.CliRunner.Run;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code quiver bench tpch} and {@code bench window} hand their options to the benchmark and report what it measured. */
class BenchCommandTest {
    @Test
    void runsTheChosenQueries() {
        Run run = CliRunner.run("bench", "tpch", "--sf", "0.01", "--queries", "q1,6", "--warmups", "0", "--runs", "1",
                "--no-duckdb", "--explain", "0", "--partitions", "1", "--cache", "64MiB");
        assertThat(run.err()).isEmpty();
        assertThat(run.exitCode()).isZero();
        assertThat(run.out())
                .contains("TPC-H benchmark: sf=0.01, partitions=1")
                .containsPattern("(?m)^q1 .* 4  ok$")
                .containsPattern("(?m)^q6 .* 1  ok$")
                .doesNotContain("q3 ");
    }

    /** {@code --set} reaches the single-node session too: a value it refuses fails the run, naming the setting. */
    @Test
    void settingsApplyToTheSingleNodeSession() {
        Run run = CliRunner.run("bench", "tpch", "--sf", "0.01", "--queries", "6", "--warmups", "0", "--runs", "1", "--no-duckdb",
                "--explain", "0", "--cache", "64MiB", "--set", "hash_join_collect_left_max_rows=-1");
        assertThat(run.exitCode()).isNotZero();
        assertThat(run.err()).contains("hash_join_collect_left_max_rows").doesNotContain("\tat ");
    }

    /** With local workers each query also runs distributed; row counts are checked against single-node and DuckDB. */
    @Test
    void localWorkersRunEachQueryDistributedToo() {
        Run run = CliRunner.run("bench", "tpch", "--sf", "0.01", "--queries", "3,18", "--warmups", "0", "--runs", "1", "--explain", "0",
                "--partitions", "2", "--cache", "64MiB", "--local-workers", "2", "--worker-memory-limit", "256MiB",
                "--set", "distributed.bytes_per_partition_for_scans=64KiB");
        assertThat(run.err()).isEmpty();
        assertThat(run.exitCode()).isZero();
        assertThat(run.out())
                .contains("settings {distributed.bytes_per_partition_for_scans=64KiB}, also on 2 local workers of 256.0 MiB")
                .contains("workers ms")
                // q3: 10 rows, q18: 2 rows at SF 0.01 (answer files), the same on workers and on DuckDB, else the check says so
                .containsPattern("(?m)^q3 .* KiB .* 10  ok$")
                .containsPattern("(?m)^q18 .* 2  ok$")
                .containsPattern("on workers: [0-9.]+ ms vs [0-9.]+ ms single-node = [0-9.]+x in total .* exchanged between stages");
    }

    /** With {@code --workers} the distributed runs go to running {@code quiver worker} processes. */
    @Test
    void runningWorkersRunEachQueryDistributedToo() throws Exception {
        try (QuiverWorkerProcess first = QuiverWorkerProcess.start("--port", "0", "--memory-limit", "256MiB");
                QuiverWorkerProcess second = QuiverWorkerProcess.start("--port", "0", "--memory-limit", "256MiB")) {
            String workers = first.address() + "," + second.address();
            Run run = CliRunner.run("bench", "tpch", "--sf", "0.01", "--queries", "3", "--warmups", "0", "--runs", "1", "--explain", "0",
                    "--no-duckdb", "--cache", "64MiB", "--workers", workers);
            assertThat(run.err()).isEmpty();
            assertThat(run.exitCode()).isZero();
            assertThat(run.out()).contains("also on workers " + first.address() + ", " + second.address())
                    // q3: 10 rows at SF 0.01 (answer file), the same on the workers as single-node, else the check says so
                    .containsPattern("(?m)^q3 .* KiB .* 10  ok$");
        }
        Run both = CliRunner.run("bench", "tpch", "--workers", "127.0.0.1:7070", "--local-workers", "2");
        assertThat(both.exitCode()).isEqualTo(2);
        assertThat(both.err()).contains("'--workers' and '--local-workers' exclude each other");
    }

    @Test
    void parquetSourceWritesTheFilesAndRunsBothEnginesOnThem(@TempDir Path directory) {
        Run run = CliRunner.run("bench", "tpch", "--sf", "0.01", "--source", "parquet", "--data-dir", directory.toString(), "--queries", "1",
                "--warmups", "0", "--runs", "1", "--explain", "0", "--partitions", "1");
        assertThat(run.err()).isEmpty();
        assertThat(run.exitCode()).isZero();
        assertThat(run.out())
                .contains("source=parquet in " + directory, "DuckDB reads the same Parquet files")
                .containsPattern("(?m)^q1 .* 4  ok$");
        assertThat(directory.resolve("lineitem/lineitem.parquet")).isRegularFile();

        Run badSource = CliRunner.run("bench", "tpch", "--source", "orc");
        assertThat(badSource.exitCode()).isEqualTo(2);
        assertThat(badSource.err()).startsWith("Error: Invalid benchmark options: unknown source 'orc'");
    }

    @Test
    void badQueryNumberExits2() {
        Run run = CliRunner.run("bench", "tpch", "--queries", "1,x");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).startsWith("Error: Invalid value for option '--queries': 'x' is not a query number");

        Run outOfRange = CliRunner.run("bench", "tpch", "--queries", "23");
        assertThat(outOfRange.exitCode()).isEqualTo(2);
        assertThat(outOfRange.err()).startsWith("Error: Invalid benchmark options: TPC-H queries are numbered 1 to 22");
    }

    @Test
    void windowRunsTheRunningSumOnBothEngines() {
        Run run = CliRunner.run("bench", "window", "--sf", "0.01", "--warmups", "0", "--runs", "1", "--partitions", "1", "--cache", "64MiB");
        assertThat(run.err()).isEmpty();
        assertThat(run.exitCode()).isZero();
        assertThat(run.out())
                .contains("Window benchmark: sum(l_quantity) over (partition by l_orderkey order by l_linenumber) over lineitem, sf=0.01, partitions=1")
                .containsPattern("(?m)^quiver +[0-9.]+ +[0-9.]+$")
                .containsPattern("(?m)^duckdb +[0-9.]+ +[0-9.]+$")
                .containsPattern("ratio quiver/duckdb [0-9.]+x")
                .containsPattern("load average after: ");
    }

    @Test
    void benchWithoutABenchmarkExits2() {
        Run run = CliRunner.run("bench");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("tpch", "window", "server");
    }
}
