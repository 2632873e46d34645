package dev.quiver.sql.planner;

import static java.util.Objects.requireNonNull;

import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.rules.JoinCommuteRule;
import org.apache.calcite.tools.RelBuilder;

/**
 * Turns every RIGHT join into a LEFT join with swapped inputs under a Project restoring the
 * column order, so that the engine meets only LEFT outer joins (the join orderer turns q13's LEFT
 * join into a RIGHT one).
 */
final class RightToLeftJoins extends RelHomogeneousShuttle {
    private final RelBuilder relBuilder;

    private RightToLeftJoins(RelBuilder relBuilder) {
        this.relBuilder = relBuilder;
    }

    static RelNode apply(RelNode rel, RelBuilder relBuilder) {
        return rel.accept(new RightToLeftJoins(relBuilder));
    }

    @Override
    public RelNode visit(RelNode other) {
        RelNode node = super.visit(other);
        if (node instanceof Join join && join.getJoinType() == JoinRelType.RIGHT) {
            return requireNonNull(JoinCommuteRule.swap(join, true, relBuilder), "RIGHT join could not be swapped");
        }
        return node;
    }
}
