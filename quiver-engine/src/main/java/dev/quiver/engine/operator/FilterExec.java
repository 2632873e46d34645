package dev.quiver.engine.operator;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.execution.AbstractExecutionPlan;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.expr.PhysicalExpr;
import java.util.List;
import org.apache.arrow.vector.types.pojo.Schema;

/** Passes the rows for which {@code predicate} is TRUE (not FALSE, not NULL). */
public final class FilterExec extends AbstractExecutionPlan {
    private final PhysicalExpr predicate;
    private final ExecutionPlan input;

    public FilterExec(PhysicalExpr predicate, ExecutionPlan input) {
        this.predicate = requireNonNull(predicate, "predicate is null");
        this.input = requireNonNull(input, "input is null");
        if (!(predicate.type() instanceof org.apache.arrow.vector.types.pojo.ArrowType.Bool)) {
            throw new QuiverException(ErrorCode.PLAN_ERROR, "filter predicate must be BOOLEAN: " + predicate.display());
        }
    }

    public PhysicalExpr predicate() {
        return predicate;
    }

    public ExecutionPlan input() {
        return input;
    }

    @Override
    public Schema schema() {
        return input.schema();
    }

    @Override
    public List<ExecutionPlan> children() {
        return List.of(input);
    }

    @Override
    public Partitioning outputPartitioning() {
        return input.outputPartitioning();
    }

    @Override
    public ExecutionPlan withNewChildren(List<ExecutionPlan> children) {
        return new FilterExec(predicate, children.get(0));
    }

    @Override
    public String displayLine() {
        return "FilterExec: " + predicate.display();
    }

    @Override
    public String name() {
        return "FilterExec";
    }

    @Override
    public BatchStream execute(int partition, TaskContext context) {
        checkPartition(partition);
        throw new UnsupportedOperationException("not implemented yet: FilterExec");
    }
}
