package dev.quiver.sql.planner;

import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;

/**
 * Pulls conjuncts common to every branch of an OR out of filter and join conditions:
 * {@code (a AND b) OR (a AND c)} becomes {@code a AND (b OR c)}. TPC-H q19's join condition only
 * has an equi-key after this; no Calcite rule does it.
 */
final class ConditionFactoring extends RelHomogeneousShuttle {
    private final RexBuilder rexBuilder;

    private ConditionFactoring(RexBuilder rexBuilder) {
        this.rexBuilder = rexBuilder;
    }

    static RelNode apply(RelNode rel) {
        return rel.accept(new ConditionFactoring(rel.getCluster().getRexBuilder()));
    }

    @Override
    public RelNode visit(RelNode other) {
        RelNode node = super.visit(other);
        if (node instanceof Filter filter) {
            RexNode condition = RexUtil.pullFactors(rexBuilder, filter.getCondition());
            return condition.equals(filter.getCondition()) ? filter : filter.copy(filter.getTraitSet(), filter.getInput(), condition);
        }
        if (node instanceof Join join) {
            RexNode condition = RexUtil.pullFactors(rexBuilder, join.getCondition());
            return condition.equals(join.getCondition()) ? join
                    : join.copy(join.getTraitSet(), condition, join.getLeft(), join.getRight(), join.getJoinType(), join.isSemiJoinDone());
        }
        return node;
    }
}
