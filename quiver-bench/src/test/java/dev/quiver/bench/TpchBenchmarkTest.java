package dev.quiver.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.error.QuiverException;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

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
}
