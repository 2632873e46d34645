package dev.quiver.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.cli.CliRunner.Run;
import dev.quiver.session.JavaCommand;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code quiver server} in a process of its own, queried with {@code quiver sql --server}: results,
 * a session kept across the statements of one script, errors with their code, SIGTERM.
 */
class ServerCommandTest {
    private static final String LISTENING = " listening on ";

    @Test
    void servesTheThinClientAndStopsOnSigterm() throws Exception {
        Path log = Files.createTempFile("quiver-server-", ".log");
        Process process = new ProcessBuilder(JavaCommand.of(QuiverCli.class, "server", "--port", "0", "--tpch", "0.01", "--memory-limit", "256MiB"))
                .redirectError(log.toFile()).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String banner = out.readLine();
            assertThat(banner).as("first line of the server; its log: %s", Files.readString(log)).isNotNull().contains(LISTENING)
                    .contains("memory limit 256.0 MiB");
            String address = banner.substring(banner.indexOf(LISTENING) + LISTENING.length()).split(" ")[0];
            assertThat(out.readLine()).isEqualTo("JDBC: jdbc:arrow-flight-sql://" + address + "?useEncryption=false");

            Run run = CliRunner.run("sql", "--server", address, "--format", "csv",
                    "set batch_size = 100; select current_setting('batch_size') as b; "
                            + "select l_returnflag, count(*) as n from lineitem where l_shipdate <= date '1998-12-01' - interval '90' day "
                            + "group by l_returnflag order by l_returnflag");
            assertThat(run.err()).isEmpty();
            // q1's answer file at SF 0.01 (same filter): count_order of A|F 14876; N|F 348 + N|O 29181; R|F 14902
            assertThat(run.out()).isEqualTo("b\n100\nl_returnflag,n\nA,14876\nN,29529\nR,14902\n");

            // the server's TPC-H tables, without --tpch here: q6's answer file at SF 0.01 says revenue 1193053.2253
            Run q6 = CliRunner.run("sql", "--server", address, "--format", "csv", "--tpch-query", "6");
            assertThat(q6.err()).isEmpty();
            assertThat(q6.out()).isEqualTo("revenue\n1193053.2253\n");

            Run failed = CliRunner.run("sql", "--server", address, "select * from no_such_table");
            assertThat(failed.exitCode()).isEqualTo(1);
            assertThat(failed.err()).startsWith("Error: TABLE_NOT_FOUND: ").contains("no_such_table").doesNotContain("\tat ");

            process.toHandle().destroy(); // SIGTERM, keeping our end of its stdout open
            assertThat(process.waitFor(20, TimeUnit.SECONDS)).as("the server stops within 20 s of SIGTERM").isTrue();
            assertThat(out.readLine()).startsWith("Quiver server " + address + " stopped");
        } finally {
            process.destroyForcibly();
            Files.deleteIfExists(log);
        }
    }

    @Test
    void usersLogInWithThePasswordQuiverPasswdSet() throws Exception {
        Path directory = Files.createTempDirectory("quiver-server-users-");
        Path users = directory.resolve("users.txt");
        Path password = directory.resolve("password");
        Files.writeString(password, "open sesame\n");
        Run passwd = CliRunner.runWithStdin("open sesame\n", "passwd", "--users", users.toString(), "alice");
        assertThat(passwd.exitCode()).as(passwd.err()).isZero();
        assertThat(Files.readString(users)).startsWith("alice:pbkdf2-sha256:").doesNotContain("open sesame");
        Path log = directory.resolve("server.log");
        Process process = new ProcessBuilder(JavaCommand.of(QuiverCli.class, "server", "--port", "0", "--users", users.toString()))
                .redirectError(log.toFile()).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String banner = out.readLine();
            assertThat(banner).as("first line of the server; its log: %s", Files.readString(log)).isNotNull().contains(LISTENING);
            String address = banner.substring(banner.indexOf(LISTENING) + LISTENING.length()).split(" ")[0];
            Run in = CliRunner.run("sql", "--server", address, "--user", "alice", "--password-file", password.toString(), "--format", "csv",
                    "select 6 * 7 as answer");
            assertThat(in.err()).isEmpty();
            assertThat(in.out()).isEqualTo("answer\n42\n");
            Run refused = CliRunner.run("sql", "--server", address, "select 1");
            assertThat(refused.exitCode()).isEqualTo(1);
            assertThat(refused.err()).startsWith("Error: UNAUTHENTICATED: ");
            Files.writeString(password, "wrong\n");
            Run wrong = CliRunner.run("sql", "--server", address, "--user", "alice", "--password-file", password.toString(), "select 1");
            assertThat(wrong.exitCode()).isEqualTo(1);
            assertThat(wrong.err()).contains("wrong user or password");
        } finally {
            process.destroyForcibly();
            process.waitFor(20, TimeUnit.SECONDS);
            try (var files = Files.list(directory)) {
                for (Path file : files.toList()) {
                    Files.delete(file);
                }
            }
            Files.delete(directory);
        }
    }

    @Test
    void noServerListeningIsAClearError() {
        Run run = CliRunner.run("sql", "--server", "127.0.0.1:1", "select 1");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains("127.0.0.1:1").doesNotContain("\tat ");
    }
}
