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
                // Q1 at SF 0.01 has 4 groups: all shown; Q3 returns 10 rows of which the first 3 and the last 2 are shown
                .contains("(4 rows, ")
                .contains("(10 rows (5 shown), ")
                .contains("Plan:")
                .containsPattern("(?m)^  Q18 +\\d+\\.\\d{3} s +2 rows  large volume customer")
                .contains("./quiver sql --tpch 0.01")
                // the distributed chapter: Q3 again on 4 in-process workers, checked against the single-node rows
                .contains("== Distributed: Q3 again, on 4 workers")
                .containsPattern("task \\d+ on 127\\.0\\.0\\.1:\\d+: FINISHED")
                .containsPattern("10 rows in \\d+\\.\\d{3} s, equal to the single-node result; \\d+ stages, \\d+ worker tasks")
                .containsPattern("(?m)^  Q3 +\\d+\\.\\d{3} s +10 rows  the same, on 4 workers")
                // the last chapter (always at least SF 0.2: 1.2 million groups): the high-cardinality GROUP BY fails with AQE's advisory
                // count and completes with the exact count of the reference handler
                .contains("== Exact consumer tasks: a high-cardinality GROUP BY on 8 workers of 24.0 MiB each (TPC-H SF 0.2 lineitem)")
                .contains("AQE on (distributed.dynamic_task_count=true, dynamic_bytes_per_partition=16 MiB), 8 partitions per task")
                .containsPattern("single node: +1199907 groups")
                .containsPattern("advisory: +AQE sized the GROUP BY to [1-7] tasks? \\(fewer than the 8 workers\\): FAILED, .*EXCEEDED_MEMORY_LIMIT: "
                        + ".*Resources exhausted")
                .containsPattern("exact \\(--stage-handler dev\\.quiver\\.distributed\\.handler\\.AggregateMemorySizingHandler\\): n=\\d tasks")
                .containsPattern("completed after \\d+\\.\\d{3} s; memory per worker: estimated [0-9.]+ MiB \\(GROUP BY state [0-9.]+ MiB for 1\\.25 × G groups, "
                        + "plus producer batches\\), measured peak [0-9.]+ MiB \\(GROUP BY state [0-9.]+ MiB\\); result equal to the single-node result")
                .containsPattern("(?m)^  Agg +\\d+\\.\\d{3} s +1 row   GROUP BY of 1199907 groups on 8 workers: advisory [1-7] tasks? failed "
                        + "\\(EXCEEDED_MEMORY_LIMIT\\), exact n=\\d");
    }
}
