package dev.quiver.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.cli.CliRunner.Run;
import org.junit.jupiter.api.Test;

/** Bad arguments exit 2 with a message on stderr; help and version exit 0. */
class ArgumentsTest {
    @Test
    void unknownOptionExits2() {
        Run run = CliRunner.run("sql", "--no-such-option", "select 1");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).startsWith("Error: Unknown option: '--no-such-option'");
        assertThat(run.out()).isEmpty();
    }

    @Test
    void unknownCommandExits2() {
        Run run = CliRunner.run("sqll");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).startsWith("Error: Unmatched argument at index 0: 'sqll'").contains("sql");
    }

    @Test
    void badFormatExits2AndNamesTheChoices() {
        Run run = CliRunner.run("sql", "--format", "xml", "select 1");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("--format").contains("xml").contains("TABLE, CSV, JSON");
    }

    @Test
    void badMemoryLimitExits2() {
        Run run = CliRunner.run("sql", "--memory-limit", "lots", "select 1");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).startsWith("Error: Invalid value for option '--memory-limit': 'lots' is not a size");
    }

    @Test
    void zeroPartitionsExits2() {
        Run run = CliRunner.run("sql", "--partitions", "0", "select 1");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).startsWith("Error: Invalid value for option '--partitions': 0");
    }

    @Test
    void sqlAndFileTogetherExit2() {
        Run run = CliRunner.run("sql", "-f", "q.sql", "select 1");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).startsWith("Error: Give the SQL one way: as an argument, with -f FILE, or with --tpch-query N");
    }

    @Test
    void missingFileExits2() {
        Run run = CliRunner.run("sql", "-f", "/no/such/dir/q.sql");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).startsWith("Error: Cannot read SQL file '/no/such/dir/q.sql': no such file");
    }

    @Test
    void emptyStdinExits2() {
        Run run = CliRunner.runWithStdin("  \n", "sql");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).startsWith("Error: No SQL given");
    }

    @Test
    void noCommandPrintsUsageAndExits2() {
        Run run = CliRunner.run();
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("Usage: quiver").contains("sql");
    }

    @Test
    void helpAndVersionExit0() {
        Run help = CliRunner.run("sql", "--help");
        assertThat(help.exitCode()).isZero();
        assertThat(help.out()).contains("Usage: quiver sql").contains("--memory-limit=SIZE").contains("--format=FORMAT");

        Run version = CliRunner.run("--version");
        assertThat(version.exitCode()).isZero();
        assertThat(version.out()).matches("(?s)Quiver \\d+\\.\\d+\\.\\d+.*\nJava .*");
    }

    @Test
    void theCommandLineOfARunHoldsOnlyTheCommandItNames() {
        java.io.PrintWriter sink = new java.io.PrintWriter(new java.io.StringWriter());
        java.io.InputStream none = java.io.InputStream.nullInputStream();
        assertThat(QuiverCli.commandLineFor(none, sink, sink, new String[] {"sql", "select 1"}).getSubcommands()).containsOnlyKeys("sql");
        assertThat(QuiverCli.commandLineFor(none, sink, sink, new String[] {"sqll"}).getSubcommands())
                .containsOnlyKeys("sql", "demo", "bench", "tpch-gen", "worker", "server", "passwd", "help");
        assertThat(QuiverCli.commandLineFor(none, sink, sink, new String[] {"help", "sql"}).getSubcommands()).containsKey("demo");
        assertThat(QuiverCli.commandLineFor(none, sink, sink, new String[0]).getSubcommands()).hasSize(8);
    }
}
