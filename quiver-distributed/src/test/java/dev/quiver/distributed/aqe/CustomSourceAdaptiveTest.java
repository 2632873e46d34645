package dev.quiver.distributed.aqe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.distributed.client.WorkerClient;
import dev.quiver.distributed.client.WorkerConnections;
import dev.quiver.distributed.codec.PlanCodec;
import dev.quiver.distributed.config.DistributedSettings;
import dev.quiver.distributed.coordinator.Coordinator;
import dev.quiver.distributed.coordinator.CoordinatorConfig;
import dev.quiver.distributed.coordinator.DistributedQuery;
import dev.quiver.distributed.coordinator.FinalPlan;
import dev.quiver.distributed.coordinator.PlannedQuery;
import dev.quiver.distributed.explain.DistributedExplain;
import dev.quiver.distributed.plan.DistributedPlannerSettings;
import dev.quiver.distributed.plan.Stage;
import dev.quiver.distributed.plan.TaskCountHint;
import dev.quiver.distributed.plan.TaskEstimators;
import dev.quiver.distributed.planner.AdaptivePlanning;
import dev.quiver.distributed.planner.DistributedPlanner;
import dev.quiver.distributed.protocol.OperatorMetricsSnapshot;
import dev.quiver.distributed.protocol.QuiverVersion;
import dev.quiver.distributed.protocol.TaskState;
import dev.quiver.distributed.worker.LocalCluster;
import dev.quiver.engine.batch.Batches;
import dev.quiver.engine.config.EngineSettings;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionConfig;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.expr.ColumnExpr;
import dev.quiver.engine.memory.MemoryPool;
import dev.quiver.engine.operator.aggregate.AggregateExpr;
import dev.quiver.engine.operator.aggregate.AggregateFunction;
import dev.quiver.engine.operator.aggregate.AggregateMode;
import dev.quiver.engine.operator.aggregate.HashAggregateExec;
import dev.quiver.engine.operator.exchange.CoalescePartitionsExec;
import dev.quiver.engine.testing.Eventually;
import dev.quiver.engine.testing.TestingContext;
import dev.quiver.engine.types.QuiverTypes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;

/**
 * The custom-source SPI of docs/aqe.md on real workers: a source with a TaskEstimator, exact
 * partition statistics and a live {@code output_rows} is sized by AQE from its statistics (and
 * sampled with a known completion); the same source without an estimator runs as one task, and the
 * plan says why.
 */
class CustomSourceAdaptiveTest {
    private static final int WORKERS = 4;
    private static final int PARTITIONS = 2;
    private static final long ROWS = 400_000;

    @Test
    void aSourceWithAnEstimatorIsSizedFromItsStatisticsAndSampledWithItsLiveOutputRows() throws Exception {
        FinalPlan done = run(TaskEstimators.builder().add(new SequenceSourceExec.Estimator(50_000)).build());
        Stage scan = done.plan().stages().get(0);
        // cost: 3.2 MB read + 3.2 MB aggregated; 512 KiB per partition → 13 partitions / P=2 → 7, clamped to 4 workers
        assertThat(scan.taskCount()).isEqualTo(WORKERS);
        assertThat(scan.taskCountHint().origin()).contains("distributed.dynamic_bytes_per_partition").contains("clamped");
        assertThat(done.reportsOf(scan.stageId())).hasSize(WORKERS).allSatisfy(report -> assertThat(report.state()).isEqualTo(TaskState.FINISHED));
        long sourceRows = done.taskReports().stream().flatMap(report -> report.metrics().stream())
                .filter(node -> node.name().equals("SequenceSourceExec")).mapToLong(OperatorMetricsSnapshot::outputRows).sum();
        assertThat(sourceRows).as("every row read once").isEqualTo(ROWS);
        StageDecision decision = done.decisions().get(scan.stageId());
        assertThat(decision.cost().unknownLeaves()).isEmpty();
        assertThat(decision.sampled()).isPresent();
        assertThat(DistributedExplain.text(done)).contains("aqe: 4 tasks from").contains("aqe: estimated rows=");
    }

    @Test
    void aSourceWithoutAnEstimatorRunsAsOneTaskAndThePlanSaysWhy() throws Exception {
        FinalPlan done = run(TaskEstimators.builtin());
        Stage scan = done.plan().stages().get(0);
        assertThat(scan.taskCount()).isEqualTo(1);
        assertThat(scan.taskCountHint()).isInstanceOf(TaskCountHint.Exact.class);
        assertThat(scan.taskCountHint().origin()).contains("SequenceSourceExec has no TaskEstimator").contains("runs as one task");
        assertThat(DistributedExplain.text(done)).contains("has no TaskEstimator");
    }

    /** {@code SELECT count(*), sum(n) FROM sequence} with AQE on 4 workers; checks the answer; returns the final plan. */
    private static FinalPlan run(TaskEstimators estimators) throws Exception {
        try (TestingContext testing = new TestingContext(MemoryPool.unlimited(), new ExecutionConfig(4096, PARTITIONS))) {
            ExecutionPlan source = new SequenceSourceExec(0, ROWS, PARTITIONS);
            ColumnExpr n = new ColumnExpr(0, "n", QuiverTypes.INT64, false);
            List<AggregateExpr> aggregates = List.of(new AggregateExpr(AggregateFunction.COUNT, List.of(), false, "cnt", QuiverTypes.INT64),
                    new AggregateExpr(AggregateFunction.SUM, List.of(n), false, "total", QuiverTypes.INT64));
            HashAggregateExec partial = new HashAggregateExec(AggregateMode.PARTIAL, List.of(), List.of(), aggregates, source);
            ExecutionPlan query = new HashAggregateExec(AggregateMode.FINAL, List.of(), List.of(), aggregates, new CoalescePartitionsExec(partial));
            PlanCodec codec = PlanCodec.builder().nodeCodec(SequenceSourceExec.CODEC).build();
            DistributedPlannerSettings settings = DistributedPlannerSettings.defaults(WORKERS, PARTITIONS);
            DistributedPlanner planner = new DistributedPlanner(new DistributedPlannerSettings(WORKERS, settings.settings()
                    .with(DistributedSettings.DYNAMIC_BYTES_PER_PARTITION, 512L << 10).with(DistributedSettings.SAMPLE_BYTES_PER_PARTITION, 64L << 10)), estimators);
            AdaptivePlanning planning = AdaptivePlanning.of(planner);
            try (LocalCluster cluster = LocalCluster.start(WORKERS, 256L << 20, codec, QuiverVersion.CURRENT);
                    WorkerConnections connections = new WorkerConnections("coordinator", testing.allocator(), testing.context().executor(), codec)) {
                List<WorkerClient> clients = cluster.addresses().stream().<WorkerClient>map(connections::workerClient).toList();
                FinalPlan done;
                List<List<Object>> rows = new ArrayList<>();
                try (Coordinator coordinator = new Coordinator(clients, connections.exchangeClient(), CoordinatorConfig.defaults(QuiverVersion.CURRENT),
                        List.of())) {
                    TaskContext head = new TaskContext("custom-q1", testing.allocator(), testing.pool(), testing.context().executor(),
                            new ExecutionConfig(4096, PARTITIONS), coordinator.headServices());
                    try (DistributedQuery execution = coordinator.newQuery("custom-q1", new PlannedQuery.Adaptive(query, planning), head,
                            planner.settings().settings().with(EngineSettings.BATCH_SIZE, 4096))) {
                        try (BatchStream stream = execution.start()) {
                            VectorSchemaRoot batch;
                            while ((batch = stream.next()) != null) {
                                try (VectorSchemaRoot owned = batch) {
                                    rows.addAll(Batches.toRows(owned));
                                }
                            }
                        }
                        done = execution.finalPlan().get(30, TimeUnit.SECONDS);
                    }
                    head.close();
                }
                assertThat(rows).containsExactly(List.of(ROWS, ROWS * (ROWS - 1) / 2));
                assertThat(done.failure()).isEmpty();
                // a worker drops a task's state just after its final report
                assertThat(Eventually.await(cluster::activeTasks, 0, Duration.ofSeconds(10))).isZero();
                return done;
            }
        }
    }
}
