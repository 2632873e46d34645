package dev.quiver.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.distributed.explain.DistributedExplain;
import dev.quiver.distributed.operator.BoundaryKind;
import dev.quiver.distributed.plan.DistributedPlan;
import dev.quiver.distributed.plan.DistributedPlannerSettings;
import dev.quiver.distributed.plan.Stage;
import dev.quiver.distributed.planner.DistributedPlanner;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.source.parquet.ParquetTable;
import dev.quiver.engine.source.parquet.ParquetTestData;
import dev.quiver.engine.source.parquet.ParquetWriteOptions;
import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.engine.source.tpch.TpchQueries;
import dev.quiver.engine.spi.Catalog;
import dev.quiver.engine.spi.TableSource;
import dev.quiver.session.tpch.AnswerFile;
import dev.quiver.session.tpch.ResultComparator;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The planner's stages, run in this JVM by {@link LocalStageRunner} (no Flight; every task plan
 * through the plan codec), give the TPC-H answers: 4 workers, P = 3, every scan split as far as
 * allowed. Over the generator, once with broadcast joins and once with every collect-left join
 * planned partitioned; over Parquet files of small row groups, which split by row group.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TpchLocalStagesTest {
    private static final DistributedPlannerSettings SETTINGS = DistributedPlannerSettings.defaults(4, 3).withBytesPerPartitionForScans(1);

    @TempDir
    static Path directory;

    private TpchCatalog generator;
    private Catalog parquet;
    private LocalStageRunner runner;

    @BeforeAll
    void start() {
        generator = TpchCatalog.cached(0.01, 256L << 20);
        Map<String, TableSource> tables = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (String name : generator.tableNames()) {
            Path tableDirectory = directory.resolve(name);
            ParquetTestData.write(generator.table(name).orElseThrow(), tableDirectory, 2, ParquetWriteOptions.defaults().withRowGroupRows(10_000));
            tables.put(name, ParquetTable.open(name, tableDirectory));
        }
        parquet = new Catalog() {
            @Override
            public Optional<TableSource> table(String name) {
                return Optional.ofNullable(tables.get(name));
            }

            @Override
            public Set<String> tableNames() {
                return Collections.unmodifiableSet(tables.keySet());
            }
        };
        runner = new LocalStageRunner(SqlPlanCodec.builder().tpchCatalogs(sf -> generator).build());
    }

    @AfterAll
    void stop() {
        try (TpchCatalog closedLast = generator; LocalStageRunner closedFirst = runner) {
            // the runner's allocator checks for leaks before the catalog's cache goes
        }
    }

    static List<Integer> queries() {
        return TpchQueries.NUMBERS;
    }

    @ParameterizedTest(name = "q{0}")
    @MethodSource("queries")
    void stagesOverTheGeneratorGiveTheAnswer(int query) {
        ExecutionPlan single = TpchDistributedPlanningTest.singleNode(query, generator);
        for (boolean broadcast : new boolean[] {true, false}) {
            assertAnswer(query, new DistributedPlanner(SETTINGS.withBroadcastJoins(broadcast)).plan(single), broadcast ? "" : " without broadcast joins");
        }
    }

    @ParameterizedTest(name = "q{0}")
    @MethodSource("queries")
    void oneSmallPartitionPerTaskGivesTheAnswerToo(int query) {
        // P = 1: single-partition operators (sorts, limits, single aggregates) appear without a coalesce below them
        ExecutionPlan single = TpchDistributedPlanningTest.singleNode(query, generator, 1);
        assertAnswer(query, new DistributedPlanner(DistributedPlannerSettings.defaults(2, 1).withBytesPerPartitionForScans(1)).plan(single), " with P=1");
    }

    @ParameterizedTest(name = "q{0}")
    @MethodSource("queries")
    void stagesOverParquetGiveTheAnswer(int query) {
        assertAnswer(query, new DistributedPlanner(SETTINGS).plan(TpchDistributedPlanningTest.singleNode(query, parquet)), " over Parquet");
    }

    @Test
    void explainAnalyzeShowsWhatEveryTaskDid() {
        // q3: customer ⋈ orders ⋈ lineitem, grouped and top-10
        DistributedPlan plan = new DistributedPlanner(SETTINGS).plan(TpchDistributedPlanningTest.singleNode(3, generator));
        List<List<Object>> rows = runner.run(plan);
        String text = DistributedExplain.text(plan, runner.reports());
        int tasks = plan.stages().stream().mapToInt(Stage::taskCount).sum();
        assertThat(text.split(": FINISHED, output_rows=", -1)).hasSize(tasks + 1);
        assertThat(text).startsWith("exchanged between stages: rows=").contains("\n+- Stage " + plan.headStage().stageId()
                + " (head, on the coordinator): 1 task × 1 partition\n");
        assertThat(DistributedExplain.exchangedBytes(plan, runner.reports())).isPositive();
        assertThat(text).contains("| task 0 on local:1000: FINISHED, output_rows=" + rows.size() + ",");
        // a shuffle producer reported its head, which sent every row its plan produced
        Stage shuffled = plan.stages().stream().filter(stage -> stage.output().map(out -> out.kind() == BoundaryKind.SHUFFLE).orElse(false))
                .findFirst().orElseThrow();
        long produced = runner.reports().stream().filter(report -> report.taskId().stageId() == shuffled.stageId())
                .mapToLong(report -> report.metrics().get(1).outputRows()).sum();
        assertThat(text).contains("actual rows=" + produced + ",").contains("producer head: metrics=[output_rows=" + produced + ",");
        assertThat(DistributedExplain.dot(plan, runner.reports())).contains("subgraph cluster_s" + plan.headStage().stageId());
    }

    private void assertAnswer(int query, DistributedPlan plan, String label) {
        List<List<Object>> rows = runner.run(plan);
        ResultComparator.assertMatches("q" + query + label, plan.headStage().plan().schema(), rows, AnswerFile.parse(TpchQueries.answer(query)).rows());
    }
}
