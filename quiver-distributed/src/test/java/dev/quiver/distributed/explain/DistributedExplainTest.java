package dev.quiver.distributed.explain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.distributed.aqe.StageCost;
import dev.quiver.distributed.aqe.StageDecision;
import dev.quiver.distributed.coordinator.FinalPlan;
import dev.quiver.distributed.plan.DistributedPlan;
import dev.quiver.distributed.plan.DistributedPlannerSettings;
import dev.quiver.distributed.plan.TaskCountHint;
import dev.quiver.distributed.planner.DistributedPlanner;
import dev.quiver.distributed.protocol.OperatorMetricsSnapshot;
import dev.quiver.distributed.protocol.TaskError;
import dev.quiver.distributed.protocol.TaskId;
import dev.quiver.distributed.protocol.TaskReport;
import dev.quiver.distributed.protocol.TaskState;
import dev.quiver.distributed.protocol.WorkerAddress;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.expr.ColumnExpr;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.operator.aggregate.AggregateMode;
import dev.quiver.engine.operator.aggregate.HashAggregateExec;
import dev.quiver.engine.operator.exchange.CoalescePartitionsExec;
import dev.quiver.engine.operator.exchange.RepartitionExec;
import dev.quiver.engine.source.memory.MemoryScanExec;
import dev.quiver.engine.types.QuiverTypes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

class DistributedExplainTest {
    private static final Schema SCHEMA = new Schema(List.of(QuiverTypes.field("k", QuiverTypes.INT64, false)));

    /** {@code SELECT DISTINCT k FROM t} over 3 workers, P = 2, scans split as far as the limit allows. */
    private static DistributedPlan distinct() {
        List<List<Object>> rows = new ArrayList<>();
        for (long i = 0; i < 30; i++) {
            rows.add(List.of(i % 4));
        }
        ExecutionPlan scan = MemoryScanExec.split(SCHEMA, rows, 2);
        HashAggregateExec partial = new HashAggregateExec(AggregateMode.PARTIAL, List.of(new ColumnExpr(0, "k", QuiverTypes.INT64, false)), List.of("k"),
                List.of(), scan);
        List<PhysicalExpr> keys = List.of(new ColumnExpr(0, "k", QuiverTypes.INT64, false));
        ExecutionPlan root = new CoalescePartitionsExec(new HashAggregateExec(AggregateMode.FINAL, keys, List.of("k"), List.of(),
                new RepartitionExec(partial, new Partitioning.Hash(keys, 2))));
        return new DistributedPlanner(DistributedPlannerSettings.defaults(3, 2).withBytesPerPartitionForScans(1)).plan(root);
    }

    @Test
    void textShowsStagesTaskCountsHintsAndPartitionMath() {
        String text = DistributedExplain.text(distinct());
        assertThat(text).isEqualTo("""
                +- Stage 2 (head, on the coordinator): 1 task × 1 partition
                | task count: Exact(1) from CoalescePartitionsExec merges every partition of stage 1 in one task
                | CoalescePartitionsExec
                |   StageInputExec: stage=1, coalesce 3 tasks × 2 partitions
                |     +- Stage 1: 3 tasks × 2 partitions
                |     | task count: Desired(3) from shuffle input from stage 0 (3 tasks)
                |     | output: coalesce to stage 2: 3 tasks × 2 partitions → 1 consumer task reads all 6
                |     | estimated output: rows=?, bytes=?
                |     | plan of task 0:
                |     | HashAggregateExec: mode=FINAL, gby=[k@0], aggr=[]
                |     |   StageInputExec: stage=0, shuffle Hash([k@0], 2 per task × 3 tasks)
                |     |     +- Stage 0: 3 tasks × 2 partitions
                |     |     | task count: Desired(3) from MemoryScanExec: 240 B / 1 B per partition (distributed.bytes_per_partition_for_scans) / P=2 → 120 tasks, capped at its 30 rows; 30 clamped by setting distributed.max_tasks_per_stage=0 (the 3 workers)
                |     |     | output: shuffle to stage 1: 3 tasks × Hash([k@0], 6) → consumer task t reads [2t, 2t+2)
                |     |     | estimated output: rows=?, bytes=?
                |     |     | plan of task 0:
                |     |     | HashAggregateExec: mode=PARTIAL, gby=[k@0], aggr=[]
                |     |     |   MemoryScanExec: partitions=2, rows=10
                |     |     +-
                |     +-
                +-
                """);
        assertThat(DistributedExplain.text(distinct())).isEqualTo(text);
    }

    @Test
    void analyzeAddsTaskStatesAndSummedOperatorMetrics() {
        DistributedPlan plan = distinct();
        List<TaskReport> reports = new ArrayList<>();
        WorkerAddress worker = new WorkerAddress("127.0.0.1", 7001);
        for (int task = 0; task < 3; task++) {
            // as a worker reports it: the producer head on top of the stage plan
            reports.add(new TaskReport(new TaskId("q1", 0, task), worker, TaskState.FINISHED,
                    List.of(new OperatorMetricsSnapshot(0, "RepartitionExec", 4, 64, 100_000, 0),
                            new OperatorMetricsSnapshot(1, "HashAggregateExec", 4, 64, 2_000_000, 1024),
                            new OperatorMetricsSnapshot(2, "MemoryScanExec", 10, 80, 1_000_000, 0)), Optional.empty()));
        }
        reports.add(new TaskReport(new TaskId("q1", 1, 0), worker, TaskState.FINISHED, List.of(new OperatorMetricsSnapshot(0, "HashAggregateExec", 2, 16, 500_000, 2048),
                new OperatorMetricsSnapshot(1, "StageInputExec", 6, 48, 0, 0)), Optional.empty()));
        reports.add(new TaskReport(new TaskId("q1", 1, 1), worker, TaskState.SKIPPED, List.of(), Optional.empty()));
        reports.add(new TaskReport(new TaskId("q1", 1, 2), worker, TaskState.FAILED, List.of(), Optional.of(new TaskError(ErrorCode.SOURCE_ERROR, "disk gone"))));
        String text = DistributedExplain.text(plan, reports);
        assertThat(text).contains("""
                |     | estimated output: rows=?, bytes=?; actual rows=2, bytes=16 B
                |     | task 0 on 127.0.0.1:7001: FINISHED, output_rows=2, elapsed_compute=0.5ms, peak_mem=2.0 KiB
                |     | task 1 on 127.0.0.1:7001: SKIPPED
                |     | task 2 on 127.0.0.1:7001: FAILED, error=SOURCE_ERROR: disk gone
                |     | plan of task 0, metrics summed over the tasks:
                """);
        // the three scan tasks' operators, summed
        assertThat(text).contains("|     |     | HashAggregateExec: mode=PARTIAL, gby=[k@0], aggr=[], metrics=[output_rows=12, output_bytes=192 B, elapsed_compute=6.0ms, "
                + "peak_mem=3.0 KiB]\n|     |     |   MemoryScanExec: partitions=2, rows=10, metrics=[output_rows=30, output_bytes=240 B, elapsed_compute=3.0ms]\n");
        assertThat(text).contains("| no task reports\n");
        // stage 0's head sent 3 × 64 B, stage 1's plan 16 B
        assertThat(text).startsWith("exchanged between stages: rows=14, bytes=208 B (uncompressed, a broadcast counted once)\n+- Stage 2");
        assertThat(DistributedExplain.exchangedBytes(plan, reports)).isEqualTo(208);
        assertThat(text).contains("""
                |     |     | estimated output: rows=?, bytes=?; actual rows=12, bytes=192 B
                |     |     | producer head: metrics=[output_rows=12, output_bytes=192 B, elapsed_compute=0.3ms]
                |     |     | task 0 on 127.0.0.1:7001: FINISHED, output_rows=4, elapsed_compute=3.1ms, peak_mem=1.0 KiB
                """);
        assertThat(DistributedExplain.dot(plan, reports)).contains("task 2 on 127.0.0.1:7001: FAILED, error=SOURCE_ERROR: disk gone")
                .contains("s0_n0 [label=\"HashAggregateExec: mode=PARTIAL, gby=[k@0], aggr=[]\\noutput_rows=12");
    }

    @Test
    void aFinalPlanShowsTheCoordinatorsHeadTaskAndTheFailure() {
        DistributedPlan plan = distinct();
        WorkerAddress worker = new WorkerAddress("127.0.0.1", 7001);
        List<TaskReport> reports = List.of(new TaskReport(new TaskId("q1", 1, 0), worker, TaskState.FAILED, List.of(),
                Optional.of(new TaskError(ErrorCode.SOURCE_ERROR, "disk gone"))));
        FinalPlan executed = new FinalPlan("q1", plan, reports, List.of(new OperatorMetricsSnapshot(0, "CoalescePartitionsExec", 3, 24, 1_000_000, 0),
                new OperatorMetricsSnapshot(1, "StageInputExec", 3, 24, 0, 0)), Optional.of(new QuiverException(ErrorCode.REMOTE_TASK_FAILED, "stage 1 failed")));
        String text = DistributedExplain.text(executed);
        assertThat(text).startsWith("query failed: REMOTE_TASK_FAILED: stage 1 failed\nexchanged between stages: rows=0, bytes=0 B");
        assertThat(text).contains("| task 0 on the coordinator: output_rows=3, elapsed_compute=1.0ms, peak_mem=0 B\n");
        assertThat(text).contains("| CoalescePartitionsExec, metrics=[output_rows=3, output_bytes=24 B, elapsed_compute=1.0ms]\n");
        assertThat(text).contains("|     | task 0 on 127.0.0.1:7001: FAILED, error=SOURCE_ERROR: disk gone\n");
        assertThat(DistributedExplain.dot(executed)).contains("task 0 on the coordinator: output_rows=3");
    }

    @Test
    void stagesShowWhatThePlannerEstimatedOfTheirOutput() {
        List<List<Object>> rows = new ArrayList<>();
        for (long i = 0; i < 30; i++) {
            rows.add(List.of(i));
        }
        DistributedPlan plan = new DistributedPlanner(DistributedPlannerSettings.defaults(2, 2))
                .plan(new CoalescePartitionsExec(MemoryScanExec.split(SCHEMA, rows, 2)));
        assertThat(DistributedExplain.text(plan)).contains("|     | estimated output: rows=30, bytes=?\n");
    }

    @Test
    void dotDrawsAClusterPerStageAndBoundaryEdgesWithTheirPartitionMath() {
        String dot = DistributedExplain.dot(distinct());
        assertThat(dot).startsWith("digraph distributed_plan {\n").endsWith("}\n");
        assertThat(dot).contains("subgraph cluster_s0 {", "subgraph cluster_s1 {", "subgraph cluster_s2 {");
        assertThat(dot).contains("label=\"Stage 2 (head, coordinator): 1 task × 1 partition\\nExact(1) from CoalescePartitionsExec");
        assertThat(dot).contains("    s0_n1 -> s0_n0;\n");
        assertThat(dot).contains("  s0_n0 -> s1_n1 [style=bold, label=\"shuffle to stage 1: 3 tasks × Hash([k@0], 6) → consumer task t reads [2t, 2t+2)\"];\n");
        assertThat(dot).contains("  s1_n0 -> s2_n1 [style=bold, label=\"coalesce to stage 2: 3 tasks × 2 partitions → 1 consumer task reads all 6\"];\n");
        assertThat(dot).isEqualTo(DistributedExplain.dot(distinct()));
    }

    @Test
    void dotShowsAqeDecisionsInTheStageLabelOnlyWhenTheQueryWasSizedAdaptively() {
        DistributedPlan plan = distinct();
        TaskCountHint.Desired hint = TaskCountHint.desired(3, "cost 4.0 KiB / P=2");
        StageCost cost = new StageCost(4096, 30, 240, List.of(), List.of("table \"t\""));
        FinalPlan adaptive = new FinalPlan("q1", plan, List.of(), List.of(), Optional.empty(),
                Map.of(0, new StageDecision(0, cost, hint, hint, Optional.empty())));
        assertThat(DistributedExplain.text(adaptive)).contains("| aqe: 3 tasks from Desired(3) from cost 4.0 KiB / P=2\n");
        // the same lines in the stage's label, under the hint, with the label's quotes escaped
        assertThat(DistributedExplain.dot(adaptive)).contains("label=\"Stage 0: 3 tasks × 2 partitions\\nDesired(3) from MemoryScanExec")
                .contains("\\naqe: 3 tasks from Desired(3) from cost 4.0 KiB / P=2\\naqe: cost 4.0 KiB (estimated output ~30 rows, ~240 B); "
                        + "no statistics for table \\\"t\\\"\";\n");

        FinalPlan planned = new FinalPlan("q1", plan, List.of(), List.of(), Optional.empty());
        assertThat(DistributedExplain.dot(planned)).doesNotContain("aqe:");
    }
}
