package dev.quiver.distributed.aqe;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.plan.Stage;
import dev.quiver.distributed.protocol.OperatorMetricsSnapshot;
import dev.quiver.distributed.protocol.TaskReport;
import dev.quiver.engine.execution.ExecutionPlan;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The estimation-accuracy measurement of issue 5: per producer stage, the q-error
 * {@code max(est/actual, actual/est)} of the sampled estimates of output rows, bytes and distinct
 * keys against what the stage's tasks actually output, summarized as P50, P95 and max with the
 * median fraction sampled. Zero counts are taken as 1 (a stage estimated empty that is empty is
 * exact). Build one with {@link #add}, then {@link #summarize()}.
 */
public final class EstimationAccuracy {
    /** What a stage's tasks actually output; {@code distinctKeys} is -1 when it was not measured. */
    public record StageActual(long rows, long bytes, long distinctKeys) {}

    /** One stage's estimate next to its actual output. */
    public record StageAccuracy(String query, int stageId, SampledStatistics estimate, StageActual actual) {
        public StageAccuracy {
            requireNonNull(query, "query is null");
            requireNonNull(estimate, "estimate is null");
            requireNonNull(actual, "actual is null");
        }

        public double rowsQError() {
            return qError(estimate.rows(), actual.rows());
        }

        public double bytesQError() {
            return qError(estimate.bytes(), actual.bytes());
        }

        /** NaN when either side is unknown. */
        public double distinctQError() {
            return estimate.distinctKeys() < 0 || actual.distinctKeys() < 0 ? Double.NaN : qError(estimate.distinctKeys(), actual.distinctKeys());
        }
    }

    /** P50, P95 and max of one q-error series; NaN when the series is empty. */
    public record Percentiles(int count, double p50, double p95, double max) {
        @Override
        public String toString() {
            return count == 0 ? "n/a" : String.format(Locale.ROOT, "P50=%.2f P95=%.2f max=%.2f (%d stages)", p50, p95, max, count);
        }
    }

    /** The measurement: q-error percentiles of rows, bytes and distinct keys, and the median fraction sampled. */
    public record Summary(Percentiles rows, Percentiles bytes, Percentiles distinctKeys, double medianFractionSampled) {
        public String print() {
            return "rows:          " + rows + "\n"
                    + "bytes:         " + bytes + "\n"
                    + "distinct keys: " + distinctKeys + "\n"
                    + String.format(Locale.ROOT, "median fraction sampled: %.1f%%", 100 * medianFractionSampled);
        }
    }

    private final List<StageAccuracy> stages = new ArrayList<>();

    public EstimationAccuracy add(String query, SampledStatistics estimate, StageActual actual) {
        stages.add(new StageAccuracy(query, estimate.stageId(), estimate, actual));
        return this;
    }

    public List<StageAccuracy> stages() {
        return List.copyOf(stages);
    }

    public Summary summarize() {
        return new Summary(percentiles(stages.stream().mapToDouble(StageAccuracy::rowsQError).toArray()),
                percentiles(stages.stream().mapToDouble(StageAccuracy::bytesQError).toArray()),
                percentiles(stages.stream().mapToDouble(StageAccuracy::distinctQError).filter(q -> !Double.isNaN(q)).toArray()),
                percentile(stages.stream().mapToDouble(s -> s.estimate().fractionSampled()).sorted().toArray(), 0.5));
    }

    /** One line per stage, then the summary. */
    public String print() {
        StringBuilder out = new StringBuilder();
        for (StageAccuracy stage : stages) {
            out.append(String.format(Locale.ROOT, "%s stage %d: rows est %d / actual %d (q %.2f), bytes est %d / actual %d (q %.2f), keys est %d / actual %d,"
                    + " sampled %.0f%%%n", stage.query(), stage.stageId(), stage.estimate().rows(), stage.actual().rows(), stage.rowsQError(),
                    stage.estimate().bytes(), stage.actual().bytes(), stage.bytesQError(), stage.estimate().distinctKeys(), stage.actual().distinctKeys(),
                    100 * stage.estimate().fractionSampled()));
        }
        return out.append(summarize().print()).toString();
    }

    /** {@code max(est/actual, actual/est)}, with counts below 1 taken as 1. */
    public static double qError(long estimate, long actual) {
        double e = Math.max(1, estimate);
        double a = Math.max(1, actual);
        return Math.max(e / a, a / e);
    }

    /**
     * What a stage's tasks output, from their final reports: the sum over tasks of the stage plan's
     * root (a report lists the executed plan in pre-order, with the producer head and the sampler,
     * when present, above the stage plan: the root is the node {@code nodes(stage plan)} from the end).
     */
    public static StageActual actualOutput(Stage stage, List<TaskReport> reports) {
        int planNodes = count(stage.plan());
        long rows = 0;
        long bytes = 0;
        for (TaskReport report : reports) {
            if (report.taskId().stageId() != stage.stageId() || report.metrics().size() < planNodes) {
                continue;
            }
            OperatorMetricsSnapshot root = report.metrics().get(report.metrics().size() - planNodes);
            rows += root.outputRows();
            bytes += root.outputBytes();
        }
        return new StageActual(rows, bytes, -1);
    }

    private static int count(ExecutionPlan plan) {
        return 1 + plan.children().stream().mapToInt(EstimationAccuracy::count).sum();
    }

    private static Percentiles percentiles(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return new Percentiles(sorted.length, percentile(sorted, 0.5), percentile(sorted, 0.95), sorted.length == 0 ? Double.NaN : sorted[sorted.length - 1]);
    }

    /** The nearest-rank percentile of sorted values. */
    static double percentile(double[] sorted, double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(p * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }
}
