package dev.quiver.sql.planner;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.engine.execution.QuiverExecutor;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.calcite.plan.RelOptUtil;
import org.junit.jupiter.api.Test;

/** Plans are deterministic, also when planned concurrently; prints the warm planning CPU time per query. */
class PlanningStabilityTest {
    private static final int QUERIES = 22;

    @Test
    void concurrentPlanningGivesTheSequentialPlans() throws Exception {
        List<String> sequential = planAll();
        // CPU time of this thread: wall time means little on a machine shared by many builds
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long[][] nanos = new long[QUERIES][3];
        for (int pass = 0; pass < 3; pass++) {
            for (int q = 1; q <= QUERIES; q++) {
                long start = threads.getCurrentThreadCpuTime();
                TpchPlanningTest.plan(q);
                nanos[q - 1][pass] = threads.getCurrentThreadCpuTime() - start;
            }
        }
        assertThat(planAll()).isEqualTo(sequential);

        try (QuiverExecutor executor = new QuiverExecutor("planning-test")) {
            List<CompletableFuture<List<String>>> futures = new ArrayList<>();
            for (int thread = 0; thread < 2; thread++) {
                CompletableFuture<List<String>> future = new CompletableFuture<>();
                executor.execute("planner-" + thread, () -> {
                    try {
                        List<String> last = null;
                        for (int repeat = 0; repeat < 2; repeat++) {
                            last = planAll();
                        }
                        future.complete(last);
                    } catch (Throwable e) {
                        future.completeExceptionally(e);
                    }
                });
                futures.add(future);
            }
            for (CompletableFuture<List<String>> future : futures) {
                assertThat(future.get(5, TimeUnit.MINUTES)).isEqualTo(sequential);
            }
        }

        StringBuilder report = new StringBuilder("warm planning CPU time, median of 3 passes (ms):");
        long total = 0;
        for (int q = 0; q < QUERIES; q++) {
            long[] times = nanos[q].clone();
            Arrays.sort(times);
            total += times[1];
            report.append(String.format(" q%d=%.1f", q + 1, times[1] / 1e6));
        }
        System.out.println(report.append(String.format("; all 22: %.0f ms", total / 1e6)));
    }

    private static List<String> planAll() {
        return IntStream.rangeClosed(1, QUERIES).mapToObj(q -> RelOptUtil.toString(TpchPlanningTest.plan(q).root())).toList();
    }
}
