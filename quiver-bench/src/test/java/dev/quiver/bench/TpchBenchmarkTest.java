package dev.quiver.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.error.QuiverException;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TpchBenchmarkTest {
    @Test
    void parsesOptionsOverTheDefaults() {
        BenchOptions options = BenchOptions.parse("--sf", "0.1", "--queries", "q1,6", "--runs", "5", "--no-duckdb", "--memory", "1GiB");
        assertThat(options.scaleFactor()).isEqualTo(0.1);
        assertThat(options.queries()).containsExactly(1, 6);
        assertThat(options.runs()).isEqualTo(5);
        assertThat(options.warmups()).isEqualTo(1);
        assertThat(options.duckdb()).isFalse();
        assertThat(options.memoryLimit()).isEqualTo(1L << 30);
        assertThat(options.targetPartitions()).isEqualTo(2);
        assertThatThrownBy(() -> BenchOptions.parse("--queries", "23")).isInstanceOf(QuiverException.class).hasMessageContaining("1 to 22");
        assertThat(BenchOptions.parse("--no-quiver").quiver()).isFalse();
        assertThatThrownBy(() -> BenchOptions.parse("--no-quiver", "--no-duckdb")).isInstanceOf(QuiverException.class)
                .hasMessageContaining("leave nothing to run");
        assertThatThrownBy(() -> BenchOptions.parse("--fast")).isInstanceOf(QuiverException.class).hasMessageContaining("unknown option --fast");
    }

    @Test
    void runsBothEnginesAndReportsEachQuery() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        BenchOptions options = BenchOptions.defaults().withScaleFactor(0.01).withQueries(List.of(1, 15)).withRuns(0, 1).withExplainSlowest(0);
        TpchBenchmark.Report report = TpchBenchmark.run(options, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String output = bytes.toString(StandardCharsets.UTF_8);
        assertThat(report.timings()).extracting(TpchBenchmark.QueryTiming::query).containsExactly(1, 15);
        assertThat(report.timings()).allSatisfy(timing -> assertThat(timing.duckdbMillis()).isPresent());
        assertThat(report.timings().get(0).duckdbRows()).isEqualTo(4);
        assertThat(report.timings().get(1).duckdbRows()).isEqualTo(1);
        // where Quiver ran a query, it returned as many rows as DuckDB
        assertThat(report.timings()).filteredOn(timing -> timing.quiverMillis().isPresent())
                .allSatisfy(timing -> assertThat(timing.error()).isEmpty());
        assertThat(output).contains("q1 ", "q15 ", "sum ", "peak pool use");
        assertThat(report.cacheBytes()).isPositive();
    }

    @Test
    void withoutQuiverRunsDuckDbAlone() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        BenchOptions options = BenchOptions.parse("--sf", "0.01", "--queries", "1,6", "--warmups", "0", "--runs", "1", "--explain", "0", "--no-quiver");
        TpchBenchmark.Report report = TpchBenchmark.run(options, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        assertThat(report.timings()).allSatisfy(timing -> {
            assertThat(timing.quiverMillis()).isEmpty();
            assertThat(timing.duckdbMillis()).isPresent();
            assertThat(timing.error()).isEmpty();
        });
        assertThat(report.timings().get(0).duckdbRows()).isEqualTo(4);
        assertThat(bytes.toString(StandardCharsets.UTF_8)).contains("2 queries ran on DuckDB alone", "(DuckDB alone)");
    }

    @Test
    void parquetSourceRunsBothEnginesOverTheSameFiles(@TempDir Path directory) throws Exception {
        BenchOptions options = BenchOptions.parse("--sf", "0.01", "--source", "parquet", "--data-dir", directory.toString(), "--warmups", "0",
                "--runs", "1", "--explain", "0", "--scan-test");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        TpchBenchmark.Report report = TpchBenchmark.run(options, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String output = bytes.toString(StandardCharsets.UTF_8);
        assertThat(report.timings()).hasSize(22).allSatisfy(timing -> {
            assertThat(timing.error()).as("q" + timing.query()).isEmpty();
            assertThat(timing.quiverMillis()).isPresent();
            assertThat(timing.duckdbMillis()).isPresent();
            assertThat(timing.quiverRows()).isEqualTo(timing.duckdbRows());
        });
        assertThat(report.timings().get(0).quiverRows()).isEqualTo(4);
        assertThat(output).contains("source=parquet in " + directory, "wrote in", "DuckDB reads the same Parquet files");
        try (Stream<Path> files = Files.list(directory.resolve("lineitem"))) {
            assertThat(files.filter(file -> file.toString().endsWith(".parquet"))).isNotEmpty();
        }
        // the scan test decoded every row of lineitem (60175 rows at SF 0.01) on both engines
        ScanTest.Result scan = report.scan().orElseThrow();
        assertThat(scan.rows()).isEqualTo(60_175);
        assertThat(scan.arrowBytes()).isGreaterThan(60_175L * 16);
        assertThat(scan.quiverMillis()).isPresent();
        assertThat(scan.duckdbMillis()).isPresent();
        assertThat(scan.error()).isEmpty();
        assertThat(output).contains("Scan test: min and max of all 16 lineitem columns, 60175 rows");

        // a second run reuses the complete dataset
        ByteArrayOutputStream again = new ByteArrayOutputStream();
        TpchBenchmark.run(options.withQueries(List.of(6)).withScanTest(false), new PrintStream(again, true, StandardCharsets.UTF_8));
        assertThat(again.toString(StandardCharsets.UTF_8)).contains("reusing parquet files in " + directory).containsPattern("(?m)^q6 .* 1  ok$");
    }

    @Test
    void arrowSourceLoadsDuckDbFromTheArrowFiles(@TempDir Path directory) {
        BenchOptions options = BenchOptions.parse("--sf", "0.01", "--source", "arrow", "--data-dir", directory.toString(), "--warmups", "0",
                "--runs", "1", "--explain", "0", "--queries", "1,9,18");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        TpchBenchmark.Report report = TpchBenchmark.run(options, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        assertThat(report.timings()).extracting(TpchBenchmark.QueryTiming::query).containsExactly(1, 9, 18);
        assertThat(report.timings().get(0).duckdbRows()).isEqualTo(4);
        assertThat(report.timings()).allSatisfy(timing -> assertThat(timing.error()).as("q" + timing.query()).isEmpty());
        assertThat(bytes.toString(StandardCharsets.UTF_8)).contains("source=arrow", "DuckDB cannot read Arrow IPC files without an extension");
        assertThat(directory.resolve("lineitem/part-00000.arrow")).isRegularFile();
    }
}
