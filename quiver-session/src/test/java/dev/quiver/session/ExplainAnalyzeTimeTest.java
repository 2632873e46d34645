package dev.quiver.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.quiver.engine.source.tpch.TpchCatalog;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The time breakdown at the end of {@code EXPLAIN ANALYZE} (docs/sql.md): its parts are positive and
 * add up to its wall time, which lies within the time the test measured around the statement, the
 * planning phases add up to planning and the per-operator split to execution; on one partition the
 * operators' exclusive compute fits in the execution time. Single node and on two local workers.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ExplainAnalyzeTimeTest {
    private static final String QUERY = "SELECT o_orderpriority, count(*), sum(l_extendedprice * (1 - l_discount)) FROM orders JOIN lineitem"
            + " ON l_orderkey = o_orderkey WHERE l_quantity < 30 GROUP BY o_orderpriority ORDER BY o_orderpriority";
    /** Each shown time is rounded to 0.1 ms: a sum of n of them may be off by n × 0.05 ms. */
    private static final double ROUNDING_MS = 0.05;
    private static final Pattern MS = Pattern.compile("(\\d+\\.\\d)ms");
    private static final Pattern TIME = Pattern.compile("Time: wall=(\\S+)ms = planning (\\S+)ms \\+ execution (\\S+)ms \\+ other (\\S+)ms");
    private static final Pattern PHASE = Pattern.compile("([a-z]+) (\\d+\\.\\d)ms");
    private static final Pattern EXECUTION = Pattern.compile("Execution (\\S+)ms: operators computed (\\S+)ms of thread time \\((\\S+) threads busy"
            + " on average\\), waited (\\S+)ms on inputs");
    private static final Pattern SHARE = Pattern.compile("^  (\\d+\\.\\d)ms +(\\d+\\.\\d)% .* \\(compute (\\d+\\.\\d)ms.*\\)$", Pattern.MULTILINE);

    private TpchCatalog catalog;

    @BeforeAll
    void start() {
        catalog = TpchCatalog.cached(0.01, 256L << 20);
    }

    @AfterAll
    void stop() {
        catalog.close();
    }

    @Test
    void singleNodeBreakdownAddsUpToTheWallTime() {
        try (QuerySession session = QuerySession.builder().catalog(catalog).targetPartitions(2).build()) {
            session.executeScript("EXPLAIN ANALYZE " + QUERY); // warm up Calcite, so that planning is not mostly class loading
            Breakdown breakdown = explainAnalyze(session);
            assertThat(breakdown.phases().keySet()).containsExactly("parse", "validate", "convert", "optimize", "physical");
            // two partitions: an operator's compute is the sum over them and says so, and its busiest partition's is at most that
            Matcher partitions = Pattern.compile("elapsed_compute=(\\d+\\.\\d)ms \\(sum of 2 partitions, max (\\d+\\.\\d)ms\\)").matcher(breakdown.text());
            assertThat(partitions.find()).as("an operator over two partitions in:\n%s", breakdown.text()).isTrue();
            assertThat(Double.parseDouble(partitions.group(2))).isLessThanOrEqualTo(Double.parseDouble(partitions.group(1)));
        }
    }

    @Test
    void onOnePartitionTheExclusiveComputeFitsInTheExecutionTime() {
        try (QuerySession session = QuerySession.builder().catalog(catalog).targetPartitions(1).build()) {
            session.executeScript("EXPLAIN ANALYZE " + QUERY);
            Breakdown breakdown = explainAnalyze(session);
            // every operator runs on the query's one thread; a compute that counted its input's time too would add up past the execution
            assertThat(breakdown.computeMs()).as(breakdown.text()).isPositive().isLessThanOrEqualTo(breakdown.executionMs() + ROUNDING_MS * 20);
        }
    }

    @Test
    void distributedBreakdownAddsUpToTheWallTime() {
        try (QuerySession session = QuerySession.builder().catalog(catalog).targetPartitions(2).localWorkers(2).build()) {
            session.executeScript("EXPLAIN ANALYZE " + QUERY);
            Breakdown breakdown = explainAnalyze(session);
            assertThat(breakdown.phases().keySet()).containsExactly("parse", "validate", "convert", "optimize", "physical", "distributed");
            assertThat(breakdown.text()).contains("  stage 1: ", "FINISHED");
            // the head stage reads the workers' output over Flight: that time is waiting, not compute
            assertThat(breakdown.waitMs()).isPositive();
        }
    }

    /** Runs {@link #QUERY} under EXPLAIN ANALYZE, checks what holds for every breakdown and returns it. */
    private static Breakdown explainAnalyze(QuerySession session) {
        long started = System.nanoTime();
        String text = (String) session.executeScript("EXPLAIN ANALYZE " + QUERY).rows().get(0).get(0);
        double measuredMs = (System.nanoTime() - started) / 1e6;
        Breakdown breakdown = Breakdown.parse(text);
        assertThat(breakdown.wallMs()).as(text).isPositive().isLessThanOrEqualTo(measuredMs + ROUNDING_MS);
        assertThat(breakdown.planningMs()).as(text).isPositive();
        assertThat(breakdown.executionMs()).as(text).isPositive();
        assertThat(breakdown.planningMs() + breakdown.executionMs() + breakdown.otherMs()).as(text)
                .isCloseTo(breakdown.wallMs(), within(4 * ROUNDING_MS));
        // what is neither planning nor execution (parsing the statement, rendering the plan) is small next to them
        assertThat(breakdown.planningMs() + breakdown.executionMs()).as(text).isGreaterThan(measuredMs / 2);
        assertThat(breakdown.phases().values()).allSatisfy(ms -> assertThat(ms).isNotNegative());
        assertThat(breakdown.phases().values().stream().mapToDouble(Double::doubleValue).sum()).as(text)
                .isCloseTo(breakdown.planningMs(), within((breakdown.phases().size() + 1) * ROUNDING_MS));
        assertThat(breakdown.shares()).as(text).isNotEmpty();
        assertThat(breakdown.shares().stream().mapToDouble(Double::doubleValue).sum()).as(text)
                .isCloseTo(breakdown.executionMs(), within((breakdown.shares().size() + 1) * ROUNDING_MS));
        assertThat(breakdown.shareComputeMs()).as(text).isCloseTo(breakdown.computeMs(), within((breakdown.shares().size() + 1) * ROUNDING_MS));
        return breakdown;
    }

    /** The numbers of one breakdown, in milliseconds as shown. */
    private record Breakdown(String text, double wallMs, double planningMs, double executionMs, double otherMs, Map<String, Double> phases,
            double computeMs, double waitMs, List<Double> shares, double shareComputeMs) {
        static Breakdown parse(String text) {
            Matcher time = find(TIME, text);
            String planningLine = text.lines().filter(line -> line.startsWith("Planning ")).findFirst().orElseThrow();
            Map<String, Double> phases = new LinkedHashMap<>();
            Matcher phase = PHASE.matcher(planningLine.substring(planningLine.indexOf(':')));
            while (phase.find()) {
                phases.put(phase.group(1), Double.parseDouble(phase.group(2)));
            }
            Matcher execution = find(EXECUTION, text);
            List<Double> shares = new ArrayList<>();
            double shareCompute = 0;
            Matcher share = SHARE.matcher(text);
            while (share.find()) {
                shares.add(Double.parseDouble(share.group(1)));
                shareCompute += Double.parseDouble(share.group(3));
            }
            assertThat(MS.matcher(text).find()).isTrue();
            return new Breakdown(text, ms(time, 1), ms(time, 2), ms(time, 3), ms(time, 4), phases, ms(execution, 2), ms(execution, 4), shares,
                    shareCompute);
        }

        private static Matcher find(Pattern pattern, String text) {
            Matcher matcher = pattern.matcher(text);
            assertThat(matcher.find()).as("%s in:\n%s", pattern, text).isTrue();
            return matcher;
        }

        private static double ms(Matcher matcher, int group) {
            return Double.parseDouble(matcher.group(group));
        }
    }
}
