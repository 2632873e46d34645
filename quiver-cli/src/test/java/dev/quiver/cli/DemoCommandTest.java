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
                .contains("./quiver sql --tpch 0.01")
                // the distributed chapter: Q3 again on 4 in-process workers, checked against the single-node rows
                .contains("== Distributed: Q3 again, on 4 workers")
                .containsPattern("task \\d+ on 127\\.0\\.0\\.1:\\d+: FINISHED")
                .containsPattern("10 rows in \\d+\\.\\d{3} s, equal to the single-node result; \\d+ stages, \\d+ worker tasks")
                .containsPattern("(?m)^  Q3 +\\d+\\.\\d{3} s +10 rows  the same, on 4 workers")
                // the last chapter: the high-cardinality GROUP BY (SF 0.03 here: ~180,000 groups) fails with the advisory (static) count and
                // completes with the exact count of the reference handler
                .contains("== Exact consumer tasks: a high-cardinality GROUP BY on 8 workers of 16.0 MiB each (TPC-H SF 0.03 lineitem)")
                .containsPattern("single node: +180502 groups")
                .containsPattern("advisory: +\\d+ tasks? for the GROUP BY \\(fewer than the 8 workers\\): FAILED, .*EXCEEDED_MEMORY_LIMIT: .*Resources exhausted")
                .containsPattern("exact \\(--stage-handler dev\\.quiver\\.distributed\\.exact\\.AggregateMemorySizingHandler\\): n=\\d tasks")
                .containsPattern("completed after \\d+\\.\\d{3} s; memory per worker: estimated [0-9.]+ MiB, measured peak [0-9.]+ MiB; "
                        + "result equal to the single-node result")
                .containsPattern("(?m)^  Agg +\\d+\\.\\d{3} s +1 row   GROUP BY of 180502 groups on 8 workers: advisory \\d+ tasks? failed "
                        + "\\(EXCEEDED_MEMORY_LIMIT\\), exact n=\\d");
    }
}
