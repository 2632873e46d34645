package dev.quiver.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.cli.CliRunner.Run;
import org.junit.jupiter.api.Test;

/** {@code quiver demo} runs its whole tour (at a small scale factor to keep the test fast). */
class DemoCommandTest {
    @Test
    void runsEveryTourQueryWithRowsAndPlan() {
        Run run = CliRunner.run("demo", "--sf", "0.01");
        assertThat(run.err()).isEmpty();
        assertThat(run.exitCode()).isZero();
        for (DemoCommand.TourQuery query : DemoCommand.TOUR) {
            assertThat(run.out()).contains("== " + query.name() + ": " + query.title());
        }
        assertThat(run.out())
                .contains("Quiver demo: TPC-H at scale factor 0.01")
                // Q1 at SF 0.01 has 4 groups: all shown; Q3 returns 10 rows of which 5 are shown
                .contains("(4 rows, ")
                .contains("(10 rows, first 5 shown, ")
                .contains("Plan:")
                .containsPattern("(?m)^  Q18 +\\d+\\.\\d{3} s +2 rows  large volume customer")
                .contains("./quiver sql --tpch 0.01");
    }
}
