package dev.quiver.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.distributed.codec.PlanCodec;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.PlanDisplay;
import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.engine.source.tpch.TpchQueries;
import dev.quiver.engine.testing.TestingContext;
import dev.quiver.session.tpch.AnswerFile;
import dev.quiver.session.tpch.ResultComparator;
import dev.quiver.sql.physical.AtMostOneRowExpr;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The physical plans of the 22 TPC-H queries (SF 0.01) survive {@link PlanCodec}: the decoded plan
 * displays the same and, executed, gives the answer file's rows and the original plan's rows.
 * Lives here, not in quiver-distributed, because quiver-session depends on quiver-distributed.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TpchPlanSerializationTest {
    private TpchCatalog catalog;
    private PlanCodec codec;
    private PlanCodec compressing;
    private final Map<Integer, ExecutionPlan> plans = new ConcurrentHashMap<>();

    @BeforeAll
    void setUp() {
        // cached: each table is generated once; the decoding side gets the same catalog, as a worker would get its own
        catalog = TpchCatalog.cached(0.01, 256L << 20);
        codec = SqlPlanCodec.builder().tpchCatalogs(sf -> catalog).build();
        compressing = SqlPlanCodec.builder().tpchCatalogs(sf -> catalog).compress(true).build();
    }

    @AfterAll
    void tearDown() {
        catalog.close();
    }

    static List<Integer> queries() {
        return TpchQueries.NUMBERS;
    }

    private ExecutionPlan plan(int query) {
        return plans.computeIfAbsent(query, q -> TpchDistributedPlanningTest.singleNode(q, catalog, 3));
    }

    @ParameterizedTest(name = "q{0}")
    @MethodSource("queries")
    void roundTripRunsToTheSameRows(int query) {
        ExecutionPlan plan = plan(query);
        byte[] bytes = codec.encode(plan);
        ExecutionPlan decoded = codec.decode(bytes);
        assertThat(PlanDisplay.indent(decoded)).isEqualTo(PlanDisplay.indent(plan));
        assertThat(decoded.schema()).isEqualTo(plan.schema());
        assertThat(codec.encode(decoded)).isEqualTo(bytes);
        assertThat(PlanDisplay.indent(codec.decode(compressing.encode(plan)))).isEqualTo(PlanDisplay.indent(plan));

        try (TestingContext testing = new TestingContext()) {
            List<List<Object>> before = testing.rows(plan);
            List<List<Object>> after = testing.rows(decoded);
            ResultComparator.assertMatches("q" + query + " after serialization", decoded.schema(), after,
                    AnswerFile.parse(TpchQueries.answer(query)).rows());
            assertThat(after).containsExactlyInAnyOrderElementsOf(before);
        }
    }

    @Test
    void scalarSubqueryCheckSurvivesTheRoundTrip() {
        ExecutionPlan single = QueryPlanning.plan(catalog, Map.of(), TestSettings.withPartitions(2),
                "select n_name from nation where n_regionkey = (select r_regionkey from region where r_name like 'AS%') order by n_name");
        assertThat(PlanDisplay.indent(single)).contains("at_most_one_row(");
        assertThatThrownBy(() -> PlanCodec.create().encode(single))
                .isInstanceOf(QuiverException.class).hasMessageContaining("no codec for " + AtMostOneRowExpr.class.getName());
        ExecutionPlan decoded = codec.decode(codec.encode(single));
        assertThat(PlanDisplay.indent(decoded)).isEqualTo(PlanDisplay.indent(single));
        ExecutionPlan many = codec.decode(codec.encode(QueryPlanning.plan(catalog, Map.of(), TestSettings.withPartitions(2),
                "select n_name from nation where n_regionkey = (select r_regionkey from region)")));
        try (TestingContext testing = new TestingContext()) {
            assertThat(testing.rows(decoded)).containsExactly(List.of("CHINA"), List.of("INDIA"), List.of("INDONESIA"), List.of("JAPAN"),
                    List.of("VIETNAM"));
            assertThatThrownBy(() -> testing.rows(many))
                    .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.SUBQUERY_MULTIPLE_ROWS));
        }
    }

    /** Not a benchmark: records the size and codec time of the largest plan for the report. */
    @Test
    void largestPlanSizeAndCodecTime() {
        int largest = 0;
        int largestSize = 0;
        for (int query : TpchQueries.NUMBERS) {
            int size = codec.encode(plan(query)).length;
            if (size > largestSize) {
                largest = query;
                largestSize = size;
            }
        }
        ExecutionPlan plan = plan(largest);
        int rounds = 50;
        for (int i = 0; i < rounds; i++) {
            codec.decode(codec.encode(plan));
        }
        long encodeNanos = 0;
        long decodeNanos = 0;
        byte[] bytes = null;
        for (int i = 0; i < rounds; i++) {
            long start = System.nanoTime();
            bytes = codec.encode(plan);
            long middle = System.nanoTime();
            codec.decode(bytes);
            decodeNanos += System.nanoTime() - middle;
            encodeNanos += middle - start;
        }
        long compressStart = System.nanoTime();
        byte[] compressed = compressing.encode(plan);
        long compressNanos = System.nanoTime() - compressStart;
        System.out.printf("largest TPC-H plan: q%d, %d plan nodes, %d bytes JSON, %d bytes gzip (%.2f ms);"
                        + " encode %.3f ms, decode %.3f ms (mean of %d)%n",
                largest, PlanDisplay.indent(plan).split("\n").length, bytes.length, compressed.length, compressNanos / 1e6,
                encodeNanos / 1e6 / rounds, decodeNanos / 1e6 / rounds, rounds);
        assertThat(compressed.length).isLessThan(bytes.length);
        assertThat(bytes.length).isEqualTo(largestSize);
    }
}
