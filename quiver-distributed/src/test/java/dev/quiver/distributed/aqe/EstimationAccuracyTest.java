package dev.quiver.distributed.aqe;

import static dev.quiver.distributed.aqe.AqeFixtures.column;
import static dev.quiver.distributed.aqe.AqeFixtures.context;
import static dev.quiver.distributed.aqe.AqeFixtures.scan;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.distributed.aqe.AqeFixtures.RecordingSink;
import dev.quiver.distributed.aqe.EstimationAccuracy.StageActual;
import dev.quiver.distributed.operator.BoundaryKind;
import dev.quiver.distributed.operator.SamplerExec;
import dev.quiver.distributed.plan.Stage;
import dev.quiver.distributed.plan.StageOutput;
import dev.quiver.distributed.plan.TaskCountHint;
import dev.quiver.distributed.protocol.OperatorMetricsSnapshot;
import dev.quiver.distributed.protocol.TaskId;
import dev.quiver.distributed.protocol.TaskReport;
import dev.quiver.distributed.protocol.TaskState;
import dev.quiver.distributed.protocol.WorkerAddress;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.operator.exchange.RepartitionExec;
import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.engine.stats.Statistics;
import dev.quiver.engine.testing.TestingContext;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class EstimationAccuracyTest {
    private final TestingContext testing = new TestingContext();

    @AfterEach
    void close() {
        testing.close();
    }

    @Test
    void qErrorIsTheRatioEitherWayWithZeroAsOne() {
        assertThat(EstimationAccuracy.qError(200, 100)).isEqualTo(2.0);
        assertThat(EstimationAccuracy.qError(50, 100)).isEqualTo(2.0);
        assertThat(EstimationAccuracy.qError(0, 0)).isEqualTo(1.0);
        assertThat(EstimationAccuracy.qError(0, 10)).isEqualTo(10.0);
    }

    @Test
    void summarizesPercentilesAndTheMedianFractionSampled() {
        EstimationAccuracy accuracy = new EstimationAccuracy();
        // row q-errors 1, 1.5, 2, 3, 10; bytes always exact; keys only measured for two stages
        long[] estimated = {100, 150, 50, 300, 1000};
        double[] fractions = {0.1, 0.2, 0.3, 0.4, 0.5};
        for (int stage = 0; stage < estimated.length; stage++) {
            accuracy.add("q" + stage, estimate(stage, estimated[stage], 1000, 10, fractions[stage]),
                    new StageActual(100, 1000, stage < 2 ? 20 : -1));
        }
        EstimationAccuracy.Summary summary = accuracy.summarize();
        assertThat(summary.rows().p50()).isEqualTo(2.0);
        assertThat(summary.rows().p95()).isEqualTo(10.0);
        assertThat(summary.rows().max()).isEqualTo(10.0);
        assertThat(summary.bytes().max()).isEqualTo(1.0);
        assertThat(summary.distinctKeys().count()).isEqualTo(2);
        assertThat(summary.distinctKeys().max()).isEqualTo(2.0);
        assertThat(summary.medianFractionSampled()).isEqualTo(0.3);
        assertThat(accuracy.print()).contains("q4 stage 4: rows est 1000 / actual 100 (q 10.00)", "rows:          P50=2.00 P95=10.00 max=10.00 (5 stages)",
                "median fraction sampled: 30.0%");
    }

    @Test
    void measuresASampledStageAgainstWhatItsTasksReported() {
        TpchCatalog catalog = new TpchCatalog(0.01);
        ExecutionPlan orders = scan(catalog, "orders", 2);
        List<PhysicalExpr> keys = List.of(column(orders, "o_custkey"));
        Stage stage = new Stage(0, List.of(orders), 2, TaskCountHint.desired(1, "test"),
                Optional.of(new StageOutput(BoundaryKind.SHUFFLE, 1, keys, 3)), List.of());

        // the task as a worker runs it: producer head over the sampler over the stage plan
        RecordingSink sink = new RecordingSink();
        ExecutionPlan head = new RepartitionExec(new SamplerExec(orders, keys, 32 * 1024), new Partitioning.Hash(keys, 3));
        try (TaskContext context = context(testing, 1000, sink)) {
            assertThat(AqeFixtures.run(head, context).rows()).isEqualTo(15000);
        }
        TaskReport report = new TaskReport(new TaskId("q1", 0, 0), WorkerAddress.parse("127.0.0.1:1"), TaskState.FINISHED,
                OperatorMetricsSnapshot.of(head), Optional.empty());
        StageActual actual = EstimationAccuracy.actualOutput(stage, List.of(report));
        assertThat(actual.rows()).isEqualTo(15000);
        assertThat(actual.bytes()).isEqualTo(orders.metrics().outputBytes());

        StageSampleCollector collector = StageSampleCollector.forStage(stage);
        sink.samples.forEach(sample -> collector.offer(0, sample));
        SampledStatistics estimate = collector.estimate().orElseThrow();
        EstimationAccuracy accuracy = new EstimationAccuracy().add("orders", estimate, new StageActual(actual.rows(), actual.bytes(), 1000));
        EstimationAccuracy.StageAccuracy measured = accuracy.stages().get(0);
        assertThat(measured.rowsQError()).isLessThan(1.1);
        assertThat(measured.bytesQError()).isLessThan(1.25);
        // 1000 customers with orders at SF 0.01 (two thirds of 1500)
        assertThat(measured.distinctQError()).isLessThan(1.25);
        assertThat(estimate.fractionSampled()).isLessThan(0.5);

        StageCost cost = new CostModel().cost(stage.plan());
        TaskCountHint.Desired hint = AdaptiveTaskCount.desired(cost.costBytes(), 16 << 20, 2, 4);
        StageDecision decision = new StageDecision(0, cost, hint, hint, Optional.empty()).withSample(estimate);
        assertThat(decision.explainLines(Optional.of(actual))).containsExactly(
                "aqe: 1 task from " + hint,
                "aqe: " + cost.summary(),
                "aqe: " + estimate.summary(),
                "aqe: actual rows=15000 (q-error " + String.format(java.util.Locale.ROOT, "%.2f", measured.rowsQError()) + "), bytes=" + actual.bytes());
        assertThat(hint.origin()).contains("/ P=2 → 1 task");
    }

    private static SampledStatistics estimate(int stage, long rows, long bytes, long keys, double fraction) {
        return new SampledStatistics(stage, rows, bytes, keys, Math.round(rows * fraction), fraction, 1, 1, 1, false, Statistics.unknown(new Schema(List.of())));
    }
}
