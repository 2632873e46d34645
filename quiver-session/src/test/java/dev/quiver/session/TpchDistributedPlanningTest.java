package dev.quiver.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.distributed.plan.DistributedPlan;
import dev.quiver.distributed.plan.DistributedPlannerSettings;
import dev.quiver.distributed.plan.Stage;
import dev.quiver.distributed.plan.StageConsistency;
import dev.quiver.distributed.planner.DistributedPlanner;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.engine.source.tpch.TpchQueries;
import dev.quiver.engine.source.tpch.TpchScanExec;
import dev.quiver.engine.spi.Catalog;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The 22 TPC-H queries (SF 0.01) plan into stages with forced fan-out: 4 workers, P = 3 and a
 * tiny {@code bytes_per_partition_for_scans}, so every scan stage runs as 4 tasks unless a join
 * that emits unmatched build rows (q4's semi join, q13's outer join) keeps it in one.
 * Every input agrees with its producer stage, and the TPC-H scans of a stage's tasks generate
 * disjoint parts covering the table.
 */
class TpchDistributedPlanningTest {
    private static final int WORKERS = 4;
    private static final int PARTITIONS = 3;
    private static final TpchCatalog CATALOG = new TpchCatalog(0.01);

    static List<Integer> queries() {
        return TpchQueries.NUMBERS;
    }

    @ParameterizedTest(name = "q{0}")
    @MethodSource("queries")
    void plansWithForcedFanOut(int query) {
        DistributedPlannerSettings settings = DistributedPlannerSettings.defaults(WORKERS, PARTITIONS).withBytesPerPartitionForScans(1);
        DistributedPlan plan = new DistributedPlanner(settings).plan(singleNode(query));

        StageConsistency.check(plan);
        assertThat(plan.stages().size()).isGreaterThan(1);
        assertThat(plan.headStage().taskCount()).isEqualTo(1);
        for (Stage stage : plan.stages()) {
            assertThat(stage.taskCount()).as("stage %d", stage.stageId()).isBetween(1, WORKERS);
            List<List<TpchScanExec>> scansPerTask = new ArrayList<>();
            for (ExecutionPlan task : stage.taskPlans()) {
                List<TpchScanExec> scans = new ArrayList<>();
                collect(task, scans);
                scansPerTask.add(scans);
                assertThat(LocalStageRunner.inputs(task)).allSatisfy(input -> assertThat(input.binding()).isEmpty());
            }
            if (!scansPerTask.get(0).isEmpty() && !stage.isHead()) {
                if (stage.taskCount() != WORKERS) {
                    // only a join that must see all of its build side's matches keeps a scan in one task
                    assertThat(stage.taskCountHint().toString()).as("why stage %d of q%d is not split", stage.stageId(), query)
                            .startsWith("Exact(1)").contains("Join");
                }
            }
            for (int scan = 0; scan < scansPerTask.get(0).size(); scan++) {
                int total = scansPerTask.get(0).get(scan).totalParts();
                int next = 0;
                for (List<TpchScanExec> scans : scansPerTask) {
                    TpchScanExec share = scans.get(scan);
                    assertThat(share.totalParts()).isEqualTo(total);
                    assertThat(share.firstPart()).as("parts are dealt in task order").isEqualTo(next);
                    next += share.outputPartitioning().partitionCount();
                }
                assertThat(next).as("the tasks cover every part").isGreaterThanOrEqualTo(total);
            }
        }
    }

    static ExecutionPlan singleNode(int query) {
        return singleNode(query, CATALOG);
    }

    static ExecutionPlan singleNode(int query, Catalog catalog) {
        return singleNode(query, catalog, PARTITIONS);
    }

    static ExecutionPlan singleNode(int query, Catalog catalog, int partitions) {
        Map<String, String> views = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        String last = null;
        for (String statement : StatementParser.split(TpchQueries.query(query))) {
            Statement parsed = StatementParser.parse(statement);
            if (parsed instanceof Statement.CreateView view) {
                views.put(view.name(), view.query());
            } else if (parsed instanceof Statement.Query q) {
                last = q.sql();
            }
        }
        return QueryPlanning.plan(catalog, views, TestSettings.withPartitions(partitions), last);
    }

    private static void collect(ExecutionPlan plan, List<TpchScanExec> scans) {
        if (plan instanceof TpchScanExec scan) {
            scans.add(scan);
        }
        plan.children().forEach(child -> collect(child, scans));
    }
}
