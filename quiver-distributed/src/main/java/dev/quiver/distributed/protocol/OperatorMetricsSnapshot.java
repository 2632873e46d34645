package dev.quiver.distributed.protocol;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.PlanTree;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one operator of a task's plan measured, as sent from a worker when the task ends. Nodes
 * are numbered in pre-order (root 0, then each child's subtree in order), which lets the
 * coordinator line them up with its copy of the task plan.
 *
 * @param peakMemoryBytes the largest peak of one partition (what plans show as {@code peak_mem})
 * @param summedPeakMemoryBytes the sum of the partitions' peaks: the task's peak for state that
 *        grows until the input ends, such as a hash aggregate's tables
 * @param counters the operator's named counts summed over its partitions (a scan's
 *        {@code scanned_bytes}, {@code files_opened}), by name
 */
public record OperatorMetricsSnapshot(int nodeIndex, String name, long outputRows, long outputBytes, long elapsedComputeNanos,
        long peakMemoryBytes, long summedPeakMemoryBytes, Map<String, Long> counters) {
    public OperatorMetricsSnapshot {
        requireNonNull(name, "name is null");
        counters = Collections.unmodifiableSortedMap(new TreeMap<>(requireNonNull(counters, "counters is null")));
    }

    /** A node of one partition (or whose partitions' sum is not known): the sum is the peak. */
    public OperatorMetricsSnapshot(int nodeIndex, String name, long outputRows, long outputBytes, long elapsedComputeNanos, long peakMemoryBytes) {
        this(nodeIndex, name, outputRows, outputBytes, elapsedComputeNanos, peakMemoryBytes, peakMemoryBytes, Map.of());
    }

    /** The metrics of every node of {@code plan}, in pre-order. */
    public static List<OperatorMetricsSnapshot> of(ExecutionPlan plan) {
        List<OperatorMetricsSnapshot> out = new ArrayList<>();
        for (ExecutionPlan node : PlanTree.nodes(plan)) {
            var metrics = node.metrics();
            out.add(new OperatorMetricsSnapshot(out.size(), node.name(), metrics.outputRows(), metrics.outputBytes(), metrics.elapsedComputeNanos(),
                    metrics.peakMemoryBytes(), metrics.summedPeakMemoryBytes(), metrics.counters()));
        }
        return List.copyOf(out);
    }
}
