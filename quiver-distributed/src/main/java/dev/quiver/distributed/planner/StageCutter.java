package dev.quiver.distributed.planner;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.config.DistributedSettings;
import dev.quiver.distributed.operator.BoundaryKind;
import dev.quiver.distributed.operator.StageInputExec;
import dev.quiver.distributed.plan.DistributedPlannerSettings;
import dev.quiver.distributed.plan.StageFragment;
import dev.quiver.distributed.plan.TaskCountHint;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.execution.PlanTree;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.operator.ValuesExec;
import dev.quiver.engine.operator.aggregate.AggregateMode;
import dev.quiver.engine.operator.aggregate.HashAggregateExec;
import dev.quiver.engine.operator.exchange.CoalescePartitionsExec;
import dev.quiver.engine.operator.exchange.RepartitionExec;
import dev.quiver.engine.operator.exchange.SortPreservingMergeExec;
import dev.quiver.engine.operator.join.HashJoinExec;
import dev.quiver.engine.operator.join.NestedLoopJoinExec;
import dev.quiver.engine.operator.join.PartitionMode;
import dev.quiver.engine.operator.limit.GlobalLimitExec;
import dev.quiver.engine.operator.recursive.RecursiveUnionExec;
import dev.quiver.engine.operator.sort.SortExec;
import dev.quiver.engine.operator.window.WindowExec;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The planner pass after the preparatory ones: cuts a single-node plan into stages at the network boundaries of
 * DESIGN §4 and records the hints nodes give for their stage's task count.
 *
 * <ul>
 *   <li>A hash {@link RepartitionExec} becomes a <b>shuffle</b>: it leaves the plan, its input is
 *       the producer stage and the consumer reads a SHUFFLE input with {@code P_c} = its partition count.
 *       Round-robin repartitions stay inside their stage.</li>
 *   <li>Below a {@link CoalescePartitionsExec} or {@link SortPreservingMergeExec} is a
 *       <b>coalesce</b>: the consumer stage is one task ({@code Exact(1)} from the merging node).</li>
 *   <li>The build (left) side of a collect-left {@link HashJoinExec} or of a
 *       {@link NestedLoopJoinExec} is a <b>broadcast</b> when the join emits no unmatched build rows
 *       (INNER, RIGHT, RIGHT_SEMI, RIGHT_ANTI). Any other such join keeps its build side in the
 *       stage and makes the stage {@code Exact(1)}. With {@code broadcast_joins=false} there is no
 *       collect-left hash join left (the preparatory pass {@link PartitionedJoins} planned them
 *       partitioned), and a nested-loop join, having no keys, is {@code Exact(1)}.</li>
 *   <li>The head stage is the root's stage when that gathers through a coalesce into one
 *       partition and reads no source; otherwise a head stage coalescing the root's stage is added.</li>
 *   <li>A node that needs all its input in one partition (global limit, single-partition sort,
 *       single or final aggregate over an input not hash-partitioned) over an input the stage
 *       splits makes the stage {@code Exact(1)}.</li>
 * </ul>
 *
 * Stages are numbered producers first; the head stage is the last.
 */
final class StageCutter {
    private final DistributedPlannerSettings settings;
    private final List<StageDraft> drafts = new ArrayList<>();

    private StageCutter(DistributedPlannerSettings settings) {
        this.settings = requireNonNull(settings, "settings is null");
    }

    /** The stages of {@code root}, producers first, the head stage (one task reading through a coalesce) last. */
    static List<StageFragment> cut(ExecutionPlan root, DistributedPlannerSettings settings) {
        StageCutter cutter = new StageCutter(settings);
        StageDraft top = cutter.stage(root);
        // the root's stage is the head when it already gathers into one task and reads no source (the coordinator runs no scans)
        if (!(top.readsCoalesceInput && root.outputPartitioning().partitionCount() == 1 && readsNoSource(top.plan))) {
            StageDraft head = new StageDraft();
            ExecutionPlan input = cutter.input(top, BoundaryKind.COALESCE, List.of(), 0, head);
            head.plan = new CoalescePartitionsExec(input);
            head.nodeHints.add(TaskCountHint.exact(1, "CoalescePartitionsExec gathers stage " + top.id + " for the head stage"));
            head.readsCoalesceInput = true;
            cutter.number(head);
        }
        return cutter.drafts.stream().map(StageCutter::fragment).toList();
    }

    private static StageFragment fragment(StageDraft draft) {
        return new StageFragment(draft.id, draft.plan, draft.nodeHints, Optional.ofNullable(draft.outputKind), draft.outputKeys,
                draft.outputKind == BoundaryKind.SHUFFLE ? draft.outputPartitionsPerConsumerTask : 0, draft.consumerId, draft.inputs);
    }

    private StageDraft stage(ExecutionPlan subtree) {
        StageDraft draft = new StageDraft();
        draft.plan = rewrite(subtree, draft);
        number(draft);
        return draft;
    }

    private void number(StageDraft draft) {
        draft.id = drafts.size();
        drafts.add(draft);
        for (int input : draft.inputs) {
            drafts.get(input).consumerId = draft.id;
        }
    }

    private ExecutionPlan rewrite(ExecutionPlan node, StageDraft draft) {
        if (node instanceof RecursiveUnionExec) {
            // its parts run again and again in the task that holds the rows they read: no boundary inside, one task
            draft.nodeHints.add(TaskCountHint.exact(1, "RecursiveUnionExec runs its recursive part in one task, over rows that task holds"));
            return node;
        }
        if (node instanceof RepartitionExec repartition && repartition.outputPartitioning() instanceof Partitioning.Hash hash) {
            return input(stage(repartition.input()), BoundaryKind.SHUFFLE, hash.keys(), hash.partitionCount(), draft);
        }
        if (node instanceof CoalescePartitionsExec || node instanceof SortPreservingMergeExec) {
            StageDraft producer = stage(node.children().get(0));
            draft.nodeHints.add(TaskCountHint.exact(1, node.name() + " merges every partition of stage " + producer.id + " in one task"));
            draft.readsCoalesceInput = true;
            return node.withNewChildren(List.of(input(producer, BoundaryKind.COALESCE, List.of(), 0, draft)));
        }
        if (node instanceof HashJoinExec join && join.mode() == PartitionMode.COLLECT_LEFT) {
            return collectLeft(join, draft);
        }
        if (node instanceof NestedLoopJoinExec join) {
            if (settings.broadcastJoins() && !join.joinType().emitsBuildRowsAfterProbe()) {
                return broadcast(join, draft);
            }
            String why = settings.broadcastJoins()
                    ? "emits unmatched build rows, so its build side cannot be broadcast"
                    : "cannot broadcast its build side (" + DistributedSettings.BROADCAST_JOINS.name() + "=false)";
            draft.nodeHints.add(TaskCountHint.exact(1, "NestedLoopJoinExec(" + join.joinType() + ") " + why + " and has no keys to shuffle on"));
            return children(node, draft);
        }
        ExecutionPlan rewritten = children(node, draft);
        wholeInputHint(rewritten).ifPresent(draft.nodeHints::add);
        return rewritten;
    }

    private ExecutionPlan collectLeft(HashJoinExec join, StageDraft draft) {
        // with broadcast_joins=false the preparatory pass (PartitionedJoins) left no collect-left hash join
        if (!join.joinType().emitsBuildRowsAfterProbe()) {
            return broadcast(join, draft);
        }
        draft.nodeHints.add(TaskCountHint.exact(1, "HashJoinExec(" + join.joinType() + ", collect_left) emits unmatched build rows, "
                + "so its build side cannot be broadcast and its probe side cannot be split"));
        return children(join, draft);
    }

    private ExecutionPlan broadcast(ExecutionPlan join, StageDraft draft) {
        ExecutionPlan build = input(stage(join.children().get(0)), BoundaryKind.BROADCAST, List.of(), 0, draft);
        return join.withNewChildren(List.of(build, rewrite(join.children().get(1), draft)));
    }

    private ExecutionPlan children(ExecutionPlan node, StageDraft draft) {
        List<ExecutionPlan> children = node.children();
        if (children.isEmpty()) {
            return node;
        }
        List<ExecutionPlan> rewritten = new ArrayList<>(children.size());
        boolean changed = false;
        for (ExecutionPlan child : children) {
            ExecutionPlan next = rewrite(child, draft);
            changed |= next != child;
            rewritten.add(next);
        }
        return changed ? node.withNewChildren(rewritten) : node;
    }

    /**
     * The unsized input of {@code consumer} from {@code producer} (one producer task, one consumer
     * task; the sizer sets the counts). {@code partitionsPerConsumerTask} is only read for a shuffle.
     */
    private StageInputExec input(StageDraft producer, BoundaryKind kind, List<PhysicalExpr> keys, int partitionsPerConsumerTask, StageDraft consumer) {
        int producerPartitions = producer.plan.outputPartitioning().partitionCount();
        producer.outputKind = kind;
        producer.outputKeys = keys;
        producer.outputPartitionsPerConsumerTask = kind == BoundaryKind.SHUFFLE ? partitionsPerConsumerTask : producerPartitions;
        consumer.inputs.add(producer.id);
        return new StageInputExec(producer.id, kind, producer.plan.schema(), keys, 1, producerPartitions, 1,
                producer.outputPartitionsPerConsumerTask, producer.plan.partitionStatistics(OptionalInt.empty()), Optional.empty());
    }

    /**
     * {@code Exact(1)} when {@code node} needs its whole input in one partition and its input may be
     * split over tasks: a split input is only whole per task when a shuffle hash-partitioned it.
     */
    private static Optional<TaskCountHint> wholeInputHint(ExecutionPlan node) {
        boolean needsWhole = node instanceof GlobalLimitExec
                || node instanceof SortExec sort && !sort.preservePartitioning()
                || node instanceof HashAggregateExec aggregate && aggregate.mode() != AggregateMode.PARTIAL
                        && !(aggregate.input().outputPartitioning() instanceof Partitioning.Hash)
                // a window needs each of its window partitions whole
                || node instanceof WindowExec window && !shuffledOnPartitionKeys(window);
        if (!needsWhole || readsOnlyWholeInputs(node.children().get(0))) {
            return Optional.empty();
        }
        return Optional.of(TaskCountHint.exact(1, node.name() + " needs all of its input in one partition, which a split stage cannot give"));
    }

    /**
     * Whether every window partition of {@code window} is within one task: its input comes, through
     * sorts that keep the partitioning and other window operators, from a shuffle on (some of) its
     * partition keys.
     */
    private static boolean shuffledOnPartitionKeys(WindowExec window) {
        if (window.partitionKeys().isEmpty()) {
            return false;
        }
        ExecutionPlan input = window.input();
        while (input instanceof SortExec sort && sort.preservePartitioning() || input instanceof WindowExec) {
            input = input.children().get(0);
        }
        // rows with equal partition keys have equal values of any subset of them, so a shuffle on a subset suffices
        return input instanceof StageInputExec stageInput && stageInput.kind() == BoundaryKind.SHUFFLE && !stageInput.keys().isEmpty()
                && window.partitionKeys().containsAll(stageInput.keys());
    }

    private static boolean readsNoSource(ExecutionPlan plan) {
        return PlanTree.leaves(plan).stream().allMatch(leaf -> leaf instanceof StageInputExec || leaf instanceof ValuesExec);
    }

    /** Whether every leaf below is a coalesce or broadcast input, so that every task sees all of it. */
    private static boolean readsOnlyWholeInputs(ExecutionPlan plan) {
        return PlanTree.leaves(plan).stream().allMatch(leaf -> leaf instanceof StageInputExec input && input.kind() != BoundaryKind.SHUFFLE);
    }
}
