package dev.quiver.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.cli.CliRunner.Run;
import org.junit.jupiter.api.Test;

class StageHandlerOptionTest {
    private static final String QUERY = "select l_returnflag, count(*) as n from lineitem group by l_returnflag order by l_returnflag";

    @Test
    void aHandlerNamedOnTheCommandLineSetsTheConsumerTaskCount() {
        Run explain = CliRunner.run("sql", "--tpch", "0.01", "--local-workers", "3", "--worker-memory-limit", "256MiB", "--partitions", "2",
                "--stage-handler", WorkerCountHandler.class.getName(), "--format", "csv", "explain " + QUERY);
        assertThat(explain.err()).isEmpty();
        assertThat(explain.exitCode()).isZero();
        assertThat(explain.out()).contains("Exact(3) from handler WorkerCountHandler");

        Run run = CliRunner.run("sql", "--tpch", "0.01", "--local-workers", "3", "--worker-memory-limit", "256MiB", "--partitions", "2",
                "--stage-handler", WorkerCountHandler.class.getName(), "--format", "csv", QUERY);
        Run singleNode = CliRunner.run("sql", "--tpch", "0.01", "--format", "csv", QUERY);
        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).isEqualTo(singleNode.out()).contains("A,14876");
    }

    @Test
    void aMissingClassIsNamedInTheError() {
        Run run = CliRunner.run("sql", "--tpch", "0.01", "--local-workers", "2", "--stage-handler", "com.example.NoSuchHandler", "select 1");
        assertThat(run.exitCode()).isNotZero();
        assertThat(run.err()).contains("--stage-handler", "com.example.NoSuchHandler", "no such class");
    }

    @Test
    void aClassThatIsNoHandlerIsNamedInTheError() {
        Run run = CliRunner.run("sql", "--tpch", "0.01", "--local-workers", "2", "--stage-handler", "java.lang.String", "select 1");
        assertThat(run.exitCode()).isNotZero();
        assertThat(run.err()).contains("java.lang.String", "not a dev.quiver.distributed.event.StageEventHandler");
    }
}
