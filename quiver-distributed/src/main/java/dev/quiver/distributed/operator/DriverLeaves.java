package dev.quiver.distributed.operator;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.protocol.DriverState;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.operator.ProjectionExec;
import dev.quiver.engine.operator.UnionExec;
import dev.quiver.engine.operator.aggregate.HashAggregateExec;
import dev.quiver.engine.operator.exchange.CoalescePartitionsExec;
import dev.quiver.engine.operator.exchange.RepartitionExec;
import dev.quiver.engine.operator.exchange.SortPreservingMergeExec;
import dev.quiver.engine.operator.join.HashJoinExec;
import dev.quiver.engine.operator.join.NestedLoopJoinExec;
import dev.quiver.engine.operator.sort.SortExec;
import dev.quiver.engine.stats.Estimate;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

/**
 * The leaves of a stage plan's driver path: the leaves reached from the root without entering the
 * build side of a join (joins are walked into their probe side, the right input; every other
 * operator into all its inputs). Their live {@code output_rows} against their statistics say how far
 * a partition's work has gone, which is how a partial sample is extrapolated (DESIGN §5 step 5).
 *
 * <p>A leaf is <em>aligned</em> when partition p of the plan reads exactly partition p of the leaf
 * (no repartition, merge or union on the way, the same partition count); otherwise a partition is
 * credited an even share of what the leaf did for the whole task.
 */
public final class DriverLeaves {
    private record Leaf(ExecutionPlan node, boolean aligned) {}

    /**
     * The blocking operators on the driver path, and whether each is the plan's output but for
     * row-preserving operators above it (projections), read for the same partition.
     */
    private record Blocking(ExecutionPlan node, boolean atOutput) {}

    private final List<Leaf> leaves;
    private final List<Blocking> blocking;
    private final int partitionCount;

    private DriverLeaves(List<Leaf> leaves, List<Blocking> blocking, int partitionCount) {
        this.leaves = List.copyOf(leaves);
        this.blocking = List.copyOf(blocking);
        this.partitionCount = partitionCount;
    }

    /** The driver leaves of {@code plan}, as one task runs it. */
    public static DriverLeaves of(ExecutionPlan plan) {
        requireNonNull(plan, "plan is null");
        int partitions = plan.outputPartitioning().partitionCount();
        List<Leaf> leaves = new ArrayList<>();
        List<Blocking> blocking = new ArrayList<>();
        collect(plan, true, true, partitions, leaves, blocking);
        return new DriverLeaves(leaves, blocking, partitions);
    }

    private static void collect(ExecutionPlan node, boolean aligned, boolean atOutput, int partitions, List<Leaf> out, List<Blocking> blocking) {
        if (node.children().isEmpty()) {
            out.add(new Leaf(node, aligned && node.outputPartitioning().partitionCount() == partitions));
            return;
        }
        if (node instanceof HashAggregateExec || node instanceof SortExec sort && sort.fetch().isEmpty()) {
            blocking.add(new Blocking(node, atOutput && aligned && node.outputPartitioning().partitionCount() == partitions));
        }
        boolean keeps = aligned && !(node instanceof RepartitionExec || node instanceof CoalescePartitionsExec
                || node instanceof SortPreservingMergeExec || node instanceof UnionExec);
        boolean childAtOutput = atOutput && node instanceof ProjectionExec;
        if (node instanceof HashJoinExec join) {
            collect(join.right(), keeps, false, partitions, out, blocking);
        } else if (node instanceof NestedLoopJoinExec join) {
            collect(join.right(), keeps, false, partitions, out, blocking);
        } else {
            for (ExecutionPlan child : node.children()) {
                collect(child, keeps, childAtOutput, partitions, out, blocking);
            }
        }
    }

    public boolean isEmpty() {
        return leaves.isEmpty();
    }

    /**
     * Whether an operator on the driver path consumes all its input before it outputs (a hash
     * aggregate, a full sort): the driver leaves are then done before the first output row, and
     * their rows say nothing about how much output is still to come.
     */
    public boolean isBlocked() {
        return !blocking.isEmpty();
    }

    /**
     * Whether the driver leaves of {@code partition} are still running or have all ended (live
     * metrics). A blocking operator (see {@link #isBlocked()}) that has output rows while they run
     * did not wait for its whole input: it streams, and the leaves' progress measures its output's.
     * Only aligned leaves are read: a partition that shares a leaf with others cannot tell its own
     * input's end from theirs.
     */
    public DriverState state(int partition) {
        int ended = 0;
        for (Leaf leaf : leaves) {
            if (!leaf.aligned()) {
                return DriverState.UNKNOWN;
            }
            if (leaf.node().metrics().partition(partition).endOfStream()) {
                ended++;
            }
        }
        if (leaves.isEmpty() || ended > 0 && ended < leaves.size()) {
            return DriverState.UNKNOWN;
        }
        return ended == 0 ? DriverState.RUNNING : DriverState.ENDED;
    }

    /**
     * Rows the blocking operator of the driver path still holds for {@code partition} and will
     * output (live metrics): known when the path has one blocking operator, which reports them
     * (an aggregate, a sort), and only projections sit above it, so that its output is the plan's.
     * The rows output so far plus these are then the output of the input consumed so far. -1 when
     * unknown (also without a blocking operator).
     */
    public long pendingRows(int partition) {
        if (blocking.size() != 1 || !blocking.get(0).atOutput()) {
            return -1;
        }
        return blocking.get(0).node().metrics().partition(partition).pendingOutputRows();
    }

    /** Display lines of the driver leaves, for plans and tests. */
    public List<String> describe() {
        return leaves.stream().map(leaf -> leaf.node().displayLine()).toList();
    }

    /** Rows the driver leaves have output so far for {@code partition} (live metrics). */
    public long rowsPulled(int partition) {
        long rows = 0;
        for (Leaf leaf : leaves) {
            rows += leaf.aligned()
                    ? leaf.node().metrics().partition(partition).outputRows()
                    : Math.round(leaf.node().metrics().outputRows() / (double) partitionCount);
        }
        return rows;
    }

    /** Rows the driver leaves will output for {@code partition} in all, from their statistics; -1 when any is unknown. */
    public long rowsExpected(int partition) {
        long rows = 0;
        for (Leaf leaf : leaves) {
            long expected = -1;
            if (leaf.aligned()) {
                Estimate own = leaf.node().partitionStatistics(OptionalInt.of(partition)).rowCount();
                expected = own.isKnown() ? own.value() : -1;
            }
            if (expected < 0) {
                long whole = taskRows(leaf.node());
                if (whole < 0) {
                    return -1;
                }
                int share = leaf.aligned() ? leaf.node().outputPartitioning().partitionCount() : partitionCount;
                expected = Math.round(whole / (double) share);
            }
            rows += expected;
        }
        return rows;
    }

    /** Rows the driver leaves will output for the whole task, from their statistics; -1 when any is unknown. */
    public long rowsExpected() {
        long rows = 0;
        for (Leaf leaf : leaves) {
            long whole = taskRows(leaf.node());
            if (whole < 0) {
                return -1;
            }
            rows += whole;
        }
        return rows;
    }

    /**
     * Rows a leaf outputs in one task. A stage input's statistics describe the producer stage's
     * whole output, which the consumer tasks of a shuffle share and each consumer task of a
     * broadcast or coalesce reads whole.
     */
    private static long taskRows(ExecutionPlan leaf) {
        Estimate rows = leaf.partitionStatistics(OptionalInt.empty()).rowCount();
        if (!rows.isKnown()) {
            return -1;
        }
        if (leaf instanceof StageInputExec input && input.kind() == BoundaryKind.SHUFFLE) {
            return Math.round(rows.value() / (double) input.consumerTasks());
        }
        return rows.value();
    }
}
