package dev.quiver.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.cli.CliRunner.Run;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code quiver worker} as a user runs it: its own process, which prints its address, serves the
 * queries of {@code quiver sql --workers}, and stops cleanly on SIGTERM.
 */
class WorkerCommandTest {
    @Test
    void servesQueriesAndStopsOnSigterm() throws Exception {
        try (QuiverWorkerProcess worker = QuiverWorkerProcess.start("--port", "0", "--memory-limit", "256MiB")) {
            assertThat(worker.banner()).as("first line of the worker; its log: %s", worker.log()).contains("memory limit 256.0 MiB");
            String address = worker.address();

            Run run = CliRunner.run("sql", "--tpch", "0.01", "--workers", address, "--format", "csv",
                    "select l_returnflag, count(*) as n from lineitem where l_shipdate <= date '1998-12-01' - interval '90' day "
                            + "group by l_returnflag order by l_returnflag");
            assertThat(run.err()).isEmpty();
            // q1's answer file at SF 0.01 (same filter): count_order of A|F 14876; N|F 348 + N|O 29181; R|F 14902
            assertThat(run.out()).isEqualTo("l_returnflag,n\nA,14876\nN,29529\nR,14902\n");

            worker.process().toHandle().destroy(); // SIGTERM, keeping our end of its stdout open
            assertThat(worker.process().waitFor(20, TimeUnit.SECONDS)).as("the worker stops within 20 s of SIGTERM").isTrue();
            assertThat(worker.out().readLine()).startsWith("Quiver worker " + address + " stopped");
        }
    }

    @Test
    void unreachableWorkerIsAClearError() {
        Run run = CliRunner.run("sql", "--tpch", "0.01", "--workers", "127.0.0.1:1", "select count(*) from nation");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains("127.0.0.1:1").doesNotContain("\tat ");
    }
}
