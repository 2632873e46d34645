package dev.quiver.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.cli.CliRunner.Run;
import dev.quiver.session.JavaCommand;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code quiver worker} as a user runs it: its own process, which prints its address, serves the
 * queries of {@code quiver sql --workers} (leaving out, with a warning, a listed worker that does
 * not answer), and stops cleanly on SIGTERM.
 */
class WorkerCommandTest {
    private static final String LISTENING = " listening on ";

    @Test
    void servesQueriesAndStopsOnSigterm() throws Exception {
        Path log = Files.createTempFile("quiver-worker-", ".log");
        Process process = new ProcessBuilder(JavaCommand.of(QuiverCli.class, "worker", "--port", "0", "--memory-limit", "256MiB"))
                .redirectError(log.toFile()).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String banner = out.readLine();
            assertThat(banner).as("first line of the worker; its log: %s", Files.readString(log)).isNotNull().contains(LISTENING)
                    .contains("memory limit 256.0 MiB");
            String address = banner.substring(banner.indexOf(LISTENING) + LISTENING.length()).split(" ")[0];

            Run run = CliRunner.run("sql", "--tpch", "0.01", "--workers", address, "--format", "csv",
                    "select l_returnflag, count(*) as n from lineitem where l_shipdate <= date '1998-12-01' - interval '90' day "
                            + "group by l_returnflag order by l_returnflag");
            assertThat(run.err()).isEmpty();
            // q1's answer file at SF 0.01 (same filter): count_order of A|F 14876; N|F 348 + N|O 29181; R|F 14902
            assertThat(run.out()).isEqualTo("l_returnflag,n\nA,14876\nN,29529\nR,14902\n");

            // a listed worker that does not answer is left out, with a warning on stderr
            Run skipping = CliRunner.run("sql", "--tpch", "0.01", "--workers", "127.0.0.1:1," + address, "--format", "csv", "select count(*) as n from nation");
            assertThat(skipping.out()).isEqualTo("n\n25\n");
            assertThat(skipping.err()).startsWith("Warning: worker 127.0.0.1:1 skipped (distributed.unreachable_workers=SKIP): ").contains("unreachable");
            Run failing = CliRunner.run("sql", "--tpch", "0.01", "--workers", "127.0.0.1:1," + address, "--set", "distributed.unreachable_workers=FAIL",
                    "select count(*) as n from nation");
            assertThat(failing.exitCode()).isEqualTo(1);
            assertThat(failing.err()).contains("WORKER_UNREACHABLE", "127.0.0.1:1").doesNotContain("\tat ");

            process.toHandle().destroy(); // SIGTERM, keeping our end of its stdout open
            assertThat(process.waitFor(20, TimeUnit.SECONDS)).as("the worker stops within 20 s of SIGTERM").isTrue();
            assertThat(out.readLine()).startsWith("Quiver worker " + address + " stopped");
        } finally {
            process.destroyForcibly();
            Files.deleteIfExists(log);
        }
    }

    @Test
    void unreachableWorkerIsAClearError() {
        Run run = CliRunner.run("sql", "--tpch", "0.01", "--workers", "127.0.0.1:1", "select count(*) from nation");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains("127.0.0.1:1").doesNotContain("\tat ");
    }
}
