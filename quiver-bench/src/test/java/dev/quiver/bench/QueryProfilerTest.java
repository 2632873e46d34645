package dev.quiver.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.engine.source.tpch.TpchQueries;
import dev.quiver.session.QuerySession;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class QueryProfilerTest {
    /**
     * Two seconds of TPC-H q1 runs profiled: the samples land in the engine's aggregate and expression
     * code (q1 is a scan, a filter and eight aggregates), the components' shares add up to all
     * samples, and the recording and the collapsed stacks are written.
     */
    @Test
    void profilesWhereAQuerySpendsItsTime(@TempDir Path directory) throws Exception {
        QueryProfiler profiler = QueryProfiler.writingTo(directory.resolve("profiles"));
        QueryProfiler.Profile profile;
        try (TpchCatalog catalog = TpchCatalog.cached(0.01, 64L << 20); QuerySession session = QuerySession.builder().catalog(catalog).build()) {
            session.execute(TpchQueries.query(1)).collect();
            profile = profiler.profile("q1", () -> {
                long end = System.nanoTime() + 2_000_000_000L;
                while (System.nanoTime() < end) {
                    session.execute(TpchQueries.query(1)).collect();
                }
            });
        }
        // how many depends on the machine's load: the sampler thread competes for the cores too
        assertThat(profile.samples()).as("samples of 10 ms in two seconds of work").isPositive();
        assertThat(profile.components().stream().mapToLong(QueryProfiler.Share::samples).sum()).isEqualTo(profile.samples());
        assertThat(profile.components()).extracting(QueryProfiler.Share::name).anyMatch(name -> name.startsWith("engine.operator"));
        assertThat(profile.topMethods()).isNotEmpty().hasSizeLessThanOrEqualTo(10);
        assertThat(profile.recording()).isEqualTo(directory.resolve("profiles/q1.jfr")).isNotEmptyFile();
        List<String> stacks = Files.readAllLines(profile.collapsed());
        assertThat(stacks).isNotEmpty().allMatch(line -> line.matches("\\S+ \\d+"));
        assertThat(stacks.stream().mapToLong(line -> Long.parseLong(line.substring(line.lastIndexOf(' ') + 1))).sum()).isEqualTo(profile.samples());
        assertThat(stacks).anyMatch(line -> line.contains("dev.quiver.engine.operator.aggregate."));
    }

    @Test
    void componentIsThePackageOfTheInnermostQuiverFrame() {
        assertThat(QueryProfiler.packageOf("dev.quiver.engine.operator.join.HashProbe")).isEqualTo("engine.operator.join");
        assertThat(QueryProfiler.packageOf("dev.quiver.engine.expr.ArithmeticExpr")).isEqualTo("engine.expr");
        assertThat(QueryProfiler.packageOf("dev.quiver.sql.planner.SqlPlanner")).isEqualTo("sql");
    }

    @Test
    void theBenchmarkPrintsEachQuerysProfile(@TempDir Path directory) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        BenchOptions options = BenchOptions.defaults().withScaleFactor(0.01).withQueries(List.of(1)).withRuns(0, 3).withExplainSlowest(0);
        TpchBenchmark.run(options.withDuckDb(false, 1), Optional.of(QueryProfiler.writingTo(directory)), new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String output = bytes.toString(StandardCharsets.UTF_8);
        assertThat(output).contains("q1 profile: ", "by component: ", "top methods: ");
        assertThat(directory.resolve("q1.jfr")).isNotEmptyFile();
        assertThat(directory.resolve("q1.collapsed")).isNotEmptyFile();
    }
}
