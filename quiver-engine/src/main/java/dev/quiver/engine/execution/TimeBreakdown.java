package dev.quiver.engine.execution;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.metrics.OperatorMetrics;
import dev.quiver.engine.metrics.PlanningTimer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Where the wall time of one query went, for the end of {@code EXPLAIN ANALYZE}:
 *
 * <pre>
 * Time: wall=812.3ms = planning 95.1ms + execution 710.2ms + other 7.0ms
 * Planning 95.1ms: parse 5.0ms, validate 20.1ms, convert 9.0ms, optimize 51.0ms, physical 10.0ms
 * Execution 710.2ms: operators computed 1290.4ms of thread time (1.82 threads busy on average), waited 300.0ms on inputs
 * Execution by operator (710.2ms split in proportion to each operator's compute):
 *   305.4ms  43.0%  HashJoinExec: mode=Partitioned, ... (compute 555.0ms)
 * </pre>
 *
 * <p>{@code wall} runs from the start of the statement to the rendering of this summary;
 * {@code planning} is the sum of its phases, {@code execution} the time from starting the plan
 * to its last batch (and, distributed, to every task's metrics), {@code other} the rest (parsing
 * the statement, rendering the plan). The operators' compute is exclusive of their inputs and is
 * thread time: partitions run on their own threads in parallel, so it sums to more than the
 * execution time when several threads were busy. The per-operator split divides the execution
 * time in proportion to compute, so that it adds up to the execution time; waits (an exchange's
 * queue, a remote stage) are reported beside it, not split.
 *
 * @param operators each operator's compute and wait, in plan order
 */
public record TimeBreakdown(long wallNanos, List<PlanningTimer.Phase> planning, long executionNanos, List<OperatorTime> operators) {
    /** Operators shown by name in the per-operator split; the rest are summed in one line. */
    private static final int SHOWN_OPERATORS = 6;
    private static final int LABEL_CHARS = 90;

    /** What one operator (of one stage, when distributed) spent, summed over its partitions and tasks. */
    public record OperatorTime(String label, long computeNanos, long waitNanos) {
        public OperatorTime {
            requireNonNull(label, "label is null");
        }
    }

    public TimeBreakdown {
        planning = List.copyOf(requireNonNull(planning, "planning is null"));
        operators = List.copyOf(requireNonNull(operators, "operators is null"));
    }

    /** Each node of {@code plan} (pre-order), labelled with its display line, with its metrics' compute and wait. */
    public static List<OperatorTime> operatorsOf(ExecutionPlan plan) {
        List<OperatorTime> times = new ArrayList<>();
        for (ExecutionPlan node : PlanTree.nodes(plan)) {
            times.add(new OperatorTime(node.displayLine(), node.metrics().elapsedComputeNanos(), node.metrics().waitNanos()));
        }
        return times;
    }

    public long planningNanos() {
        return planning.stream().mapToLong(PlanningTimer.Phase::nanos).sum();
    }

    /** The wall time neither planning nor execution: parsing the statement, rendering the plan. */
    public long otherNanos() {
        return Math.max(0, wallNanos - planningNanos() - executionNanos);
    }

    public long computeNanos() {
        return operators.stream().mapToLong(OperatorTime::computeNanos).sum();
    }

    public long waitNanos() {
        return operators.stream().mapToLong(OperatorTime::waitNanos).sum();
    }

    /** The lines of the summary (see the class comment), each without a line break. */
    public List<String> lines() {
        List<String> lines = new ArrayList<>();
        lines.add("Time: wall=" + ms(wallNanos) + " = planning " + ms(planningNanos()) + " + execution " + ms(executionNanos)
                + " + other " + ms(otherNanos()));
        StringBuilder phases = new StringBuilder("Planning ").append(ms(planningNanos())).append(':');
        for (int i = 0; i < planning.size(); i++) {
            phases.append(i == 0 ? " " : ", ").append(planning.get(i).name()).append(' ').append(ms(planning.get(i).nanos()));
        }
        lines.add(phases.toString());
        long compute = computeNanos();
        lines.add("Execution " + ms(executionNanos) + ": operators computed " + ms(compute) + " of thread time ("
                + String.format(Locale.ROOT, "%.2f", executionNanos == 0 ? 0.0 : compute / (double) executionNanos)
                + " threads busy on average), waited " + ms(waitNanos()) + " on inputs");
        lines.add("Execution by operator (" + ms(executionNanos) + " split in proportion to each operator's compute):");
        List<OperatorTime> ranked = operators.stream().sorted(Comparator.comparingLong(OperatorTime::computeNanos).reversed()).toList();
        long shownShare = 0;
        for (int i = 0; i < Math.min(SHOWN_OPERATORS, ranked.size()); i++) {
            OperatorTime operator = ranked.get(i);
            long share = share(operator.computeNanos(), compute);
            shownShare += share;
            lines.add("  " + ms(share) + "  " + percent(operator.computeNanos(), compute) + "  " + label(operator.label()) + " (compute "
                    + ms(operator.computeNanos()) + (operator.waitNanos() > 0 ? ", wait " + ms(operator.waitNanos()) : "") + ")");
        }
        if (ranked.size() > SHOWN_OPERATORS) {
            long rest = ranked.subList(SHOWN_OPERATORS, ranked.size()).stream().mapToLong(OperatorTime::computeNanos).sum();
            lines.add("  " + ms(compute == 0 ? 0 : executionNanos - shownShare) + "  " + percent(rest, compute) + "  "
                    + (ranked.size() - SHOWN_OPERATORS) + " other operators (compute " + ms(rest) + ")");
        }
        return lines;
    }

    /** The part of the execution time attributed to {@code compute} of {@code total}. */
    private long share(long compute, long total) {
        return total == 0 ? 0 : Math.round(executionNanos * (compute / (double) total));
    }

    private static String percent(long part, long total) {
        return String.format(Locale.ROOT, "%5.1f%%", total == 0 ? 0.0 : 100.0 * part / total);
    }

    private static String label(String displayLine) {
        return displayLine.length() <= LABEL_CHARS ? displayLine : displayLine.substring(0, LABEL_CHARS - 1) + "…";
    }

    private static String ms(long nanos) {
        return OperatorMetrics.millis(nanos);
    }
}
