package dev.quiver.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The window benchmark runs its query on both engines over all of lineitem and finds their results equal. */
class WindowBenchTest {
    @Test
    void runsTheWindowOnBothEnginesAndComparesTheirResults() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        BenchOptions options = BenchOptions.parse("--sf", "0.01", "--warmups", "0", "--runs", "1", "--cache", "64MiB");
        WindowBench.Result result = WindowBench.run(options, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String output = bytes.toString(StandardCharsets.UTF_8);
        // lineitem at SF 0.01 has 60 175 rows; an error would say that the engines' count or sum differ
        assertThat(result.error()).isEmpty();
        assertThat(result.rows()).isEqualTo(60_175);
        assertThat(result.quiverMillis()).isPresent();
        assertThat(result.duckdbMillis()).isPresent();
        assertThat(result.ratio()).isPresent();
        assertThat(result.windowMillis()).isPositive();
        assertThat(output).contains("query (both engines): " + WindowBench.QUERY, "ratio quiver/duckdb", "load average before: ",
                "load average after: ", "WindowExec");
    }
}
