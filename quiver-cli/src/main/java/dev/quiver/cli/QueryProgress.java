package dev.quiver.cli;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.protocol.TaskId;
import dev.quiver.distributed.protocol.TaskState;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.memory.ByteSize;
import dev.quiver.engine.stats.Estimate;
import dev.quiver.session.QueryHandle;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;

/**
 * What a running query has done so far, in one line: the rows and bytes its scans have read (with
 * the share of their input when the sources know their size) on one node, the stages and tasks done
 * on workers, and the time it has run. Read from the live metrics the operators update as batches
 * flow, from any thread.
 */
final class QueryProgress {
    private final QueryHandle handle;
    private final List<ExecutionPlan> leaves;
    private final long inputRows;

    QueryProgress(QueryHandle handle) {
        this.handle = requireNonNull(handle, "handle is null");
        this.leaves = handle.isDistributed() ? List.of() : leaves(handle.plan());
        this.inputRows = knownRows(leaves);
    }

    String describe() {
        StringBuilder line = new StringBuilder();
        if (handle.isDistributed()) {
            appendTasks(line);
        } else {
            appendScans(line);
        }
        line.append(String.format(Locale.ROOT, " | %.1f s", handle.elapsed().toMillis() / 1000.0));
        return line.toString();
    }

    private void appendScans(StringBuilder line) {
        long rows = 0;
        long bytes = 0;
        for (ExecutionPlan leaf : leaves) {
            rows += leaf.metrics().outputRows();
            bytes += leaf.metrics().outputBytes();
        }
        line.append("read ").append(String.format(Locale.ROOT, "%,d", rows)).append(" rows (")
                .append(ByteSize.formatBytes(bytes)).append(')');
        if (inputRows > 0) {
            line.append(String.format(Locale.ROOT, ", %d%% of the input", Math.min(100, rows * 100 / inputRows)));
        }
    }

    private void appendTasks(StringBuilder line) {
        Map<TaskId, TaskState> states = handle.taskStates();
        Map<Integer, int[]> byStage = new HashMap<>();
        int done = 0;
        for (Map.Entry<TaskId, TaskState> task : states.entrySet()) {
            int[] counts = byStage.computeIfAbsent(task.getKey().stageId(), stage -> new int[2]);
            counts[0]++;
            if (task.getValue().isTerminal()) {
                counts[1]++;
                done++;
            }
        }
        long stagesDone = byStage.values().stream().filter(counts -> counts[0] == counts[1]).count();
        line.append("stages ").append(stagesDone).append('/').append(byStage.size()).append(" done, tasks ")
                .append(done).append('/').append(states.size()).append(" done");
    }

    /** The nodes without children: the scans, whose output is what the query has read. */
    private static List<ExecutionPlan> leaves(ExecutionPlan plan) {
        List<ExecutionPlan> leaves = new ArrayList<>();
        List<ExecutionPlan> pending = new ArrayList<>(List.of(plan));
        while (!pending.isEmpty()) {
            ExecutionPlan node = pending.remove(pending.size() - 1);
            if (node.children().isEmpty()) {
                leaves.add(node);
            } else {
                pending.addAll(node.children());
            }
        }
        return leaves;
    }

    /** The rows the leaves will read when every one knows its row count, else 0 (no share is shown). */
    private static long knownRows(List<ExecutionPlan> leaves) {
        long total = 0;
        for (ExecutionPlan leaf : leaves) {
            Estimate rows = leaf.partitionStatistics(OptionalInt.empty()).rowCount();
            if (!rows.isKnown()) {
                return 0;
            }
            total += rows.value();
        }
        return total;
    }
}
