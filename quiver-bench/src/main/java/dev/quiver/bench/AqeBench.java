package dev.quiver.bench;

import dev.quiver.distributed.aqe.EstimationAccuracy;
import dev.quiver.distributed.aqe.StageDecision;
import dev.quiver.distributed.coordinator.FinalPlan;
import dev.quiver.distributed.operator.StageInputExec;
import dev.quiver.distributed.plan.Stage;
import dev.quiver.distributed.protocol.TaskReport;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.operator.aggregate.AggregateMode;
import dev.quiver.engine.operator.aggregate.HashAggregateExec;
import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.engine.source.tpch.TpchQueries;
import dev.quiver.session.QuerySession;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The TPC-H queries on in-process workers with static task counts and with AQE
 * ({@code distributed.dynamic_task_count=true}) on the same cluster: per query the median time of
 * each mode, their ratio and the task counts each chose per stage; with {@code accuracy}, the
 * estimation accuracy of AQE's sampled statistics over every sampled stage
 * ({@link EstimationAccuracy}: q-error of rows, bytes and distinct keys, median fraction sampled).
 * Actual distinct keys are not in task reports; they are taken where the plan shows them (the
 * consumer's FINAL aggregate on the shuffle keys), so the distinct-key series covers those stages.
 */
public final class AqeBench {
    /** One query: the medians in ms (NaN when it failed), the task counts per stage in each mode, and an error if any. */
    public record Comparison(int query, double staticMillis, double dynamicMillis, String staticTasks, String dynamicTasks, String error) {
        public double ratio() {
            return dynamicMillis / staticMillis;
        }
    }

    private AqeBench() {}

    /** Runs the comparison on generated tables; {@code options.cluster()} must be present. */
    public static List<Comparison> run(BenchOptions options, PrintStream out, boolean accuracy) {
        BenchOptions.Cluster cluster = options.cluster().orElseThrow(() -> new IllegalArgumentException("the AQE comparison needs --local-workers N"));
        out.println("TPC-H on " + cluster.description() + ", static vs AQE (distributed.dynamic_task_count=true): " + options);
        List<Comparison> results = new ArrayList<>();
        EstimationAccuracy estimates = new EstimationAccuracy();
        try (TpchCatalog catalog = TpchCatalog.cached(options.scaleFactor(), options.cacheLimit());
                ClusterRuns runs = ClusterRuns.open(options, cluster, catalog)) {
            out.printf(Locale.ROOT, "%-4s %10s %10s %7s  %-24s %-24s %s%n", "q", "static ms", "aqe ms", "aqe/st", "static tasks", "aqe tasks", "error");
            for (int query : options.queries()) {
                Comparison result = compare(options, runs, query, accuracy ? estimates : null);
                results.add(result);
                out.printf(Locale.ROOT, "q%-3d %10.0f %10.0f %7.2f  %-24s %-24s %s%n", query, result.staticMillis(), result.dynamicMillis(), result.ratio(),
                        result.staticTasks(), result.dynamicTasks(), result.error());
            }
        }
        double staticTotal = results.stream().mapToDouble(Comparison::staticMillis).sum();
        double dynamicTotal = results.stream().mapToDouble(Comparison::dynamicMillis).sum();
        out.printf(Locale.ROOT, "total: static %.0f ms, aqe %.0f ms, aqe/static %.2f; geometric mean of the per-query ratios %.2f%n", staticTotal,
                dynamicTotal, dynamicTotal / staticTotal, Math.exp(results.stream().mapToDouble(r -> Math.log(r.ratio())).average().orElse(Double.NaN)));
        if (accuracy) {
            out.println("estimation accuracy, every sampled stage of the last AQE run of each query:");
            out.print(estimates.print());
        }
        return results;
    }

    private static Comparison compare(BenchOptions options, ClusterRuns runs, int query, EstimationAccuracy estimates) {
        String text = TpchQueries.query(query, options.scaleFactor());
        List<String> errors = new ArrayList<>();
        FinalPlan[] last = new FinalPlan[2];
        double staticMillis = TpchBenchmark.time(options, errors, "static", () -> {
            last[0] = runOnce(runs, query, text, false);
            return 0;
        }).orElse(Double.NaN);
        double dynamicMillis = TpchBenchmark.time(options, errors, "aqe", () -> {
            last[1] = runOnce(runs, query, text, true);
            return 0;
        }).orElse(Double.NaN);
        if (estimates != null && last[1] != null) {
            for (Map.Entry<Integer, StageDecision> entry : last[1].decisions().entrySet()) {
                Stage stage = last[1].plan().stage(entry.getKey());
                entry.getValue().sampled().ifPresent(sampled -> {
                    EstimationAccuracy.StageActual actual = EstimationAccuracy.actualOutput(stage, last[1].reportsOf(stage.stageId()));
                    estimates.add("q" + query, sampled, new EstimationAccuracy.StageActual(actual.rows(), actual.bytes(), actualKeys(last[1], stage)));
                });
            }
        }
        return new Comparison(query, staticMillis, dynamicMillis, tasks(last[0]), tasks(last[1]), String.join("; ", errors));
    }

    /**
     * The distinct hash keys a shuffle stage really output, where the plan shows them: when the
     * consumer groups its input from this stage by exactly the shuffle keys (a FINAL aggregate right
     * above the stage input), its output rows summed over its tasks are the distinct keys; else -1.
     */
    private static long actualKeys(FinalPlan plan, Stage producer) {
        if (producer.output().isEmpty() || producer.output().get().keys().isEmpty()) {
            return -1;
        }
        Stage consumer = plan.plan().stage(producer.output().get().consumerStageId());
        int[] index = {0};
        int parent = finalAggregateAbove(consumer.plan(), producer.stageId(), producer.output().get().keys().size(), index);
        if (parent < 0) {
            return -1;
        }
        int nodes = count(consumer.plan());
        if (consumer.isHead()) {
            // the head runs on the coordinator; its metrics are in pre-order when its plan kept its shape
            return plan.headMetrics().size() == nodes ? plan.headMetrics().get(parent).outputRows() : -1;
        }
        long keys = 0;
        for (TaskReport report : plan.reportsOf(consumer.stageId())) {
            int offset = report.metrics().size() - nodes;
            if (offset < 0) {
                return -1;
            }
            keys += report.metrics().get(offset + parent).outputRows();
        }
        return keys;
    }

    /** The pre-order index of a FINAL aggregate with {@code keys} group keys directly above the input from stage {@code producer}; -1 if none. */
    private static int finalAggregateAbove(ExecutionPlan node, int producer, int keys, int[] index) {
        int mine = index[0]++;
        for (ExecutionPlan child : node.children()) {
            if (child instanceof StageInputExec input && input.producerStageId() == producer) {
                return node instanceof HashAggregateExec aggregate && aggregate.mode() == AggregateMode.FINAL && aggregate.groupExprs().size() == keys
                        ? mine : -1;
            }
            int found = finalAggregateAbove(child, producer, keys, index);
            if (found != -2) {
                return found;
            }
        }
        return -2;
    }

    private static int count(ExecutionPlan plan) {
        return 1 + plan.children().stream().mapToInt(AqeBench::count).sum();
    }

    /** The task count of each stage, producers first, e.g. {@code 4,4,2,1}. */
    private static String tasks(FinalPlan plan) {
        return plan == null ? "-" : plan.plan().stages().stream().map(stage -> Integer.toString(stage.taskCount())).collect(Collectors.joining(","));
    }

    private static FinalPlan runOnce(ClusterRuns runs, int query, String text, boolean dynamic) {
        QuerySession session = runs.session();
        session.execute("SET distributed.dynamic_task_count = " + dynamic).close();
        try {
            runs.run(query, text);
            return runs.lastFinalPlan();
        } finally {
            session.execute("SET distributed.dynamic_task_count = false").close();
        }
    }
}
