package dev.quiver.engine.operator.join;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.config.EngineSettings;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.error.ResourcesExhaustedException;
import dev.quiver.engine.execution.AbstractExecutionPlan;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.MeteredBatchStream;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.metrics.PartitionMetrics;
import dev.quiver.engine.types.QuiverTypes;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.IntFunction;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Equi-join on {@code leftKeys = rightKeys} (NULL keys never match), with an optional residual
 * {@code filter} over the left columns followed by the right columns
 * ({@link JoinSchemas#filterSchema}). The left input is the build side: hashed into a table
 * reserved in the memory pool; the right input is probed batch by batch.
 *
 * <p>{@link PartitionMode#PARTITIONED}: both inputs have the same partition count, hash-partitioned
 * on the keys; output partition i joins input partitions i. {@link PartitionMode#COLLECT_LEFT}: the
 * build side is collected once from all left partitions and shared by the right partitions; output
 * has the right input's partition count. Join types that emit unmatched build rows (LEFT, FULL,
 * LEFT_SEMI, LEFT_ANTI) emit them once, after the last probe partition finishes.
 *
 * <p>With {@code spill_enabled}, a partitioned join whose build side does not fit in its share of
 * the pool spills as a grace hash join ({@link GraceJoinStream}). A collect-left build side cannot
 * spill (every probe partition reads all of it); when it does not fit the error says how to have
 * the planner partition the join instead.
 */
public final class HashJoinExec extends AbstractExecutionPlan {
    private final ExecutionPlan left;
    private final ExecutionPlan right;
    private final List<PhysicalExpr> leftKeys;
    private final List<PhysicalExpr> rightKeys;
    private final JoinType joinType;
    private final Optional<PhysicalExpr> filter;
    private final PartitionMode mode;
    private final Schema schema;
    private final List<KeyKernel> kernels;

    public HashJoinExec(ExecutionPlan left, ExecutionPlan right, List<PhysicalExpr> leftKeys, List<PhysicalExpr> rightKeys,
            JoinType joinType, Optional<PhysicalExpr> filter, PartitionMode mode) {
        this.left = requireNonNull(left, "left is null");
        this.right = requireNonNull(right, "right is null");
        this.leftKeys = List.copyOf(requireNonNull(leftKeys, "leftKeys is null"));
        this.rightKeys = List.copyOf(requireNonNull(rightKeys, "rightKeys is null"));
        this.joinType = requireNonNull(joinType, "joinType is null");
        this.filter = requireNonNull(filter, "filter is null");
        this.mode = requireNonNull(mode, "mode is null");
        if (leftKeys.isEmpty() || leftKeys.size() != rightKeys.size()) {
            throw new QuiverException(ErrorCode.PLAN_ERROR, "hash join needs equally many left and right keys, at least one: " + leftKeys + " = " + rightKeys);
        }
        if (mode == PartitionMode.PARTITIONED
                && left.outputPartitioning().partitionCount() != right.outputPartitioning().partitionCount()) {
            throw new QuiverException(ErrorCode.PLAN_ERROR, "partitioned hash join inputs have " + left.outputPartitioning().partitionCount()
                    + " and " + right.outputPartitioning().partitionCount() + " partitions");
        }
        List<KeyKernel> keyKernels = new ArrayList<>(leftKeys.size());
        for (int i = 0; i < leftKeys.size(); i++) {
            ArrowType leftType = leftKeys.get(i).type();
            ArrowType rightType = rightKeys.get(i).type();
            if (!leftType.equals(rightType)) {
                throw new QuiverException(ErrorCode.PLAN_ERROR, "hash join key " + i + " has type " + QuiverTypes.sqlName(leftType)
                        + " on the left and " + QuiverTypes.sqlName(rightType) + " on the right: " + leftKeys.get(i).display()
                        + " = " + rightKeys.get(i).display());
            }
            keyKernels.add(KeyKernel.forType(leftType));
        }
        this.kernels = List.copyOf(keyKernels);
        this.schema = JoinSchemas.outputSchema(left.schema(), right.schema(), joinType);
    }

    public ExecutionPlan left() {
        return left;
    }

    public ExecutionPlan right() {
        return right;
    }

    public List<PhysicalExpr> leftKeys() {
        return leftKeys;
    }

    public List<PhysicalExpr> rightKeys() {
        return rightKeys;
    }

    public JoinType joinType() {
        return joinType;
    }

    public Optional<PhysicalExpr> filter() {
        return filter;
    }

    public PartitionMode mode() {
        return mode;
    }

    @Override
    public String name() {
        return "HashJoinExec";
    }

    @Override
    public Schema schema() {
        return schema;
    }

    @Override
    public List<ExecutionPlan> children() {
        return List.of(left, right);
    }

    @Override
    public Partitioning outputPartitioning() {
        return new Partitioning.Unknown(right.outputPartitioning().partitionCount());
    }

    @Override
    public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
        return new HashJoinExec(children.get(0), children.get(1), leftKeys, rightKeys, joinType, filter, mode);
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        checkPartition(partition);
        PartitionMetrics partitionMetrics = metrics().partition(partition);
        if (mode == PartitionMode.PARTITIONED && context.setting(EngineSettings.SPILL_ENABLED)) {
            return new MeteredBatchStream(graceJoin(partition, context, partitionMetrics), partitionMetrics, context);
        }
        BuildSideHandle handle = switch (mode) {
            case PARTITIONED -> partitionBuild(partition, context, partitionMetrics);
            case COLLECT_LEFT -> context.sharedState(this, SharedBuild.class, () -> new SharedBuild(
                    right.outputPartitioning().partitionCount(),
                    () -> collectLeft(context, partitionMetrics)))
                    .handle(partitionMetrics);
        };
        BatchStream probe;
        try {
            probe = right.execute(partition, context);
        } catch (RuntimeException e) {
            handle.release();
            throw e;
        }
        return new MeteredBatchStream(joinStream(handle, probe, context, partitionMetrics), partitionMetrics, context);
    }

    private JoinStream joinStream(BuildSideHandle handle, BatchStream probe, TaskContext context, PartitionMetrics partitionMetrics) {
        return new JoinStream(joinType, left.schema(), right.schema(), filter, handle, probe,
                build -> new HashProbe(build, rightKeys, kernels, context.allocator()), context, partitionMetrics);
    }

    /** A partition that spills its build and probe inputs when the build side does not fit ({@code spill_enabled}). */
    private BatchStream graceJoin(int partition, TaskContext context, PartitionMetrics partitionMetrics) {
        BatchStream buildInput = left.execute(partition, context);
        BatchStream probeInput;
        try {
            probeInput = right.execute(partition, context);
        } catch (RuntimeException e) {
            buildInput.close();
            throw e;
        }
        String consumer = "HashJoinExec[build, partition=" + partition + "]";
        BuildSide.Spec spec = buildSpec(consumer, 1, p -> buildInput);
        GraceBuild builder = new GraceBuild(spec, new SpillHash(leftKeys, kernels), context, partitionMetrics);
        return new GraceJoinStream(joinType, schema, right.schema(), builder, new SpillHash(rightKeys, kernels), buildInput, probeInput,
                (handle, probe) -> joinStream(handle, probe, context, partitionMetrics), "HashJoinExec[probe, partition=" + partition + "]",
                context, partitionMetrics);
    }

    /**
     * The shared build side of a collect-left join. It cannot spill: every probe partition reads
     * all of it. When it does not fit, the error says how to have the planner partition the join,
     * which can.
     */
    private BuildSide collectLeft(TaskContext context, PartitionMetrics partitionMetrics) {
        BuildSide.Spec spec = buildSpec("HashJoinExec[build, collect_left]", left.outputPartitioning().partitionCount(),
                p -> left.execute(p, context));
        try {
            return BuildSide.build(spec, context, partitionMetrics);
        } catch (ResourcesExhaustedException e) {
            throw withDetail(e, "; a collect-left hash join does not spill, as every probe partition shares its build side: lower"
                            + " hash_join_collect_left_max_rows (below this build side's row count) so that the planner partitions"
                            + " the join, which spills, or raise memory_limit");
        }
    }

    /** {@code e} with {@code detail} (what the user can do) appended to its message. */
    private static ResourcesExhaustedException withDetail(ResourcesExhaustedException e, String detail) {
        ResourcesExhaustedException detailed = new ResourcesExhaustedException(e.consumer(), e.requestedBytes(), e.poolUsedBytes(),
                e.poolLimitBytes(), detail);
        detailed.addSuppressed(e);
        return detailed;
    }

    private BuildSideHandle partitionBuild(int partition, TaskContext context, PartitionMetrics partitionMetrics) {
        BatchStream input = left.execute(partition, context);
        BuildSide.Spec spec = buildSpec("HashJoinExec[build, partition=" + partition + "]", 1, p -> input);
        return new PartitionBuild(() -> {
            try {
                return BuildSide.build(spec, context, partitionMetrics);
            } catch (ResourcesExhaustedException e) {
                throw withDetail(e, "; spilling is disabled (spill_enabled = false): enable it, or raise memory_limit");
            }
        }, input::close, partitionMetrics);
    }

    private BuildSide.Spec buildSpec(String consumer, int partitions, IntFunction<BatchStream> open) {
        return new BuildSide.Spec(consumer, left.schema(), partitions, open, leftKeys, kernels, true, joinType.emitsBuildRowsAfterProbe());
    }

    @Override
    public String displayLine() {
        StringBuilder on = new StringBuilder();
        for (int i = 0; i < leftKeys.size(); i++) {
            on.append(i == 0 ? "" : ", ").append("(").append(leftKeys.get(i).display()).append(", ").append(rightKeys.get(i).display()).append(")");
        }
        return "HashJoinExec: mode=" + mode + ", join_type=" + joinType + ", on=[" + on + "]"
                + filter.map(f -> ", filter=" + f.display()).orElse("");
    }
}
