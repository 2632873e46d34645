package dev.quiver.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.PlanDisplay;
import dev.quiver.engine.execution.PlanTree;
import dev.quiver.engine.operator.aggregate.HashAggregateExec;
import dev.quiver.engine.operator.sort.SortExec;
import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.engine.source.tpch.TpchScanExec;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
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
        String shown = PlanDisplay.indent(plan);
        assertThat(shown).doesNotContain("Correlate");
        // the shape the query text implies: it scans exactly the tables it names (views included), ...
        // (string literals left out: q16's '%Customer%Complaints%' names no table)
        String text = script.toLowerCase(Locale.ROOT).replaceAll("'[^']*'", "''");
        Set<String> named = TABLES.stream().filter(table -> Pattern.compile("\\b" + table + "\\b").matcher(text).find()).collect(Collectors.toSet());
        Set<String> scanned = PlanTree.nodesOf(plan, TpchScanExec.class).stream().map(TpchScanExec::tableName).collect(Collectors.toSet());
        assertThat(scanned).as("tables scanned by q%d", query).isEqualTo(named);
        // ... aggregates when it aggregates, sorts when it orders, and returns one partition with the columns of its select list
        String outer = last.toLowerCase(Locale.ROOT);
        if (AGGREGATE.matcher(text).find()) {
            assertThat(PlanTree.nodesOf(plan, HashAggregateExec.class)).as("aggregates of q%d", query).isNotEmpty();
        }
        if (outer.contains("order by")) {
            assertThat(PlanTree.anyMatch(plan, node -> node instanceof SortExec)).as("q%d sorts", query).isTrue();
        }
        assertThat(plan.outputPartitioning().partitionCount()).isEqualTo(1);
        assertThat(plan.schema().getFields()).isNotEmpty();
    }

    private static final List<String> TABLES = List.of("lineitem", "orders", "customer", "part", "partsupp", "supplier", "nation", "region");
    private static final Pattern AGGREGATE = Pattern.compile("\\b(sum|count|avg|min|max)\\s*\\(|group by");

    static String queryText(int query) throws IOException {
        try (InputStream in = TpchCatalog.class.getClassLoader().getResourceAsStream("io/trino/tpch/queries/q" + query + ".sql")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
