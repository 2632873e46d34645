package dev.quiver.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.PlanDisplay;
import dev.quiver.engine.source.tpch.TpchCatalog;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every TPC-H query plans into a physical plan (that they run correctly is the TPC-H suite's job). */
class TpchPlanningTest {
    private static final TpchCatalog CATALOG = new TpchCatalog(0.01);

    static Stream<Integer> queries() {
        return IntStream.rangeClosed(1, 22).boxed();
    }

    @ParameterizedTest
    @MethodSource("queries")
    void plans(int query) throws IOException {
        String script = queryText(query);
        String last = null;
        Map<String, String> views = new java.util.TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (String statement : StatementParser.split(script)) {
            Statement parsed = StatementParser.parse(statement);
            if (parsed instanceof Statement.CreateView view) {
                views.put(view.name(), view.query());
            } else if (parsed instanceof Statement.Query q) {
                last = q.sql();
            }
        }
        ExecutionPlan plan = QueryPlanning.plan(CATALOG, views, TestSettings.withPartitions(4), last);
        assertThat(PlanDisplay.indent(plan)).doesNotContain("Correlate");
        assertThat(plan.schema().getFields()).isNotEmpty();
    }

    static String queryText(int query) throws IOException {
        try (InputStream in = TpchCatalog.class.getClassLoader().getResourceAsStream("io/trino/tpch/queries/q" + query + ".sql")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
