package dev.quiver.engine.operator.join;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.execution.AbstractExecutionPlan;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.MeteredBatchStream;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.metrics.PartitionMetrics;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Join on an arbitrary {@code filter} (or none: a cross join), for conditions without an equi-key.
 * The left input is collected once from all its partitions (reserved in the memory pool) and
 * shared; each right partition is joined against it. Unmatched left rows (LEFT, FULL, LEFT_SEMI,
 * LEFT_ANTI) are emitted once, after the last right partition finishes.
 */
public final class NestedLoopJoinExec extends AbstractExecutionPlan {
    private final ExecutionPlan left;
    private final ExecutionPlan right;
    private final JoinType joinType;
    private final Optional<PhysicalExpr> filter;
    private final Schema schema;

    public NestedLoopJoinExec(ExecutionPlan left, ExecutionPlan right, JoinType joinType, Optional<PhysicalExpr> filter) {
        this.left = requireNonNull(left, "left is null");
        this.right = requireNonNull(right, "right is null");
        this.joinType = requireNonNull(joinType, "joinType is null");
        this.filter = requireNonNull(filter, "filter is null");
        this.schema = JoinSchemas.outputSchema(left.schema(), right.schema(), joinType);
    }

    public ExecutionPlan left() {
        return left;
    }

    public ExecutionPlan right() {
        return right;
    }

    public JoinType joinType() {
        return joinType;
    }

    public Optional<PhysicalExpr> filter() {
        return filter;
    }

    @Override
    public String name() {
        return "NestedLoopJoinExec";
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
        return new NestedLoopJoinExec(children.get(0), children.get(1), joinType, filter);
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        checkPartition(partition);
        PartitionMetrics partitionMetrics = metrics().partition(partition);
        BuildSide.Spec spec = new BuildSide.Spec("NestedLoopJoinExec[build]", left.schema(), left.outputPartitioning().partitionCount(),
                p -> left.execute(p, context), List.of(), List.of(), false, joinType.emitsBuildRowsAfterProbe());
        BuildSideHandle handle = context.sharedState(this, SharedBuild.class, () -> new SharedBuild(
                right.outputPartitioning().partitionCount(), () -> BuildSide.build(spec, context, partitionMetrics)))
                .handle(partitionMetrics);
        BatchStream probe;
        try {
            probe = right.execute(partition, context);
        } catch (RuntimeException e) {
            handle.release();
            throw e;
        }
        JoinStream stream = new JoinStream(joinType, left.schema(), right.schema(), filter, handle, probe,
                build -> new CrossProduct(build.rowCount()), context, partitionMetrics);
        return new MeteredBatchStream(stream, partitionMetrics, context);
    }

    @Override
    public String displayLine() {
        return "NestedLoopJoinExec: join_type=" + joinType + filter.map(f -> ", filter=" + f.display()).orElse("");
    }
}
