package dev.quiver.distributed.handler;

import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.expr.ColumnExpr;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.operator.ProjectionExec;
import dev.quiver.engine.operator.aggregate.HashAggregateExec;
import dev.quiver.engine.stats.Estimate;
import java.util.List;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * Distinct counts of a plan's output columns from the catalog (the leaves' column statistics, e.g.
 * the TPC-H generator's key counts), found by following a column down through grouping keys,
 * column projections and nodes that pass their input's columns through. Used by
 * {@link AggregateMemorySizingHandler} before a stage is sampled.
 */
final class GroupCardinality {
    private GroupCardinality() {}

    /**
     * The distinct tuples of {@code keys} over {@code plan}'s output: the product of the keys'
     * distinct counts, at most {@code rowsCap}; empty when a key cannot be traced to a leaf with a
     * known distinct count.
     */
    static OptionalLong distinctTuples(ExecutionPlan plan, List<PhysicalExpr> keys, long rowsCap) {
        double product = 1;
        for (PhysicalExpr key : keys) {
            if (!(key instanceof ColumnExpr column)) {
                return OptionalLong.empty();
            }
            OptionalLong distinct = distinct(plan, column.index());
            if (distinct.isEmpty()) {
                return OptionalLong.empty();
            }
            product *= distinct.getAsLong();
        }
        return OptionalLong.of((long) Math.min(product, rowsCap > 0 ? rowsCap : Long.MAX_VALUE));
    }

    static OptionalLong distinct(ExecutionPlan plan, int column) {
        if (plan.children().isEmpty()) {
            Estimate distinct = plan.partitionStatistics(OptionalInt.empty()).columns().get(column).distinctCount();
            return distinct.isKnown() ? OptionalLong.of(distinct.value()) : OptionalLong.empty();
        }
        if (plan instanceof HashAggregateExec aggregate) {
            return column < aggregate.groupExprs().size() ? through(aggregate.input(), aggregate.groupExprs().get(column)) : OptionalLong.empty();
        }
        if (plan instanceof ProjectionExec projection) {
            return through(projection.input(), projection.exprs().get(column));
        }
        if (plan.children().size() == 1 && plan.children().get(0).schema().equals(plan.schema())) {
            return distinct(plan.children().get(0), column);
        }
        return OptionalLong.empty();
    }

    private static OptionalLong through(ExecutionPlan input, PhysicalExpr expr) {
        return expr instanceof ColumnExpr column ? distinct(input, column.index()) : OptionalLong.empty();
    }
}
