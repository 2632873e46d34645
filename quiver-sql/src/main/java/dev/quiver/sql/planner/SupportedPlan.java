package dev.quiver.sql.planner;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.util.Set;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Correlate;
import org.apache.calcite.rel.core.Intersect;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.core.Minus;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.logical.LogicalRepeatUnion;
import org.apache.calcite.rel.logical.LogicalSort;
import org.apache.calcite.rel.logical.LogicalTableScan;
import org.apache.calcite.rel.logical.LogicalTableSpool;
import org.apache.calcite.rel.logical.LogicalUnion;
import org.apache.calcite.rel.logical.LogicalValues;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.sql.SqlKind;

/**
 * The last check of a logical plan: the physical planner gets only the node and join types it
 * knows. What a user asked for and Quiver cannot do fails with NOT_SUPPORTED; what the optimizer
 * should have removed (Sargs, RIGHT joins, MultiJoins) fails with PLAN_ERROR.
 */
final class SupportedPlan {
    private static final Set<Class<?>> NODES = Set.of(LogicalTableScan.class, LogicalFilter.class, LogicalProject.class,
            LogicalJoin.class, LogicalAggregate.class, LogicalSort.class, LogicalUnion.class, LogicalValues.class, LogicalReplicate.class, LogicalUnnest.class,
            LogicalRepeatUnion.class, LogicalTableSpool.class, org.apache.calcite.rel.logical.LogicalWindow.class);
    private static final Set<JoinRelType> JOIN_TYPES = Set.of(JoinRelType.INNER, JoinRelType.LEFT, JoinRelType.FULL,
            JoinRelType.SEMI, JoinRelType.ANTI);

    private SupportedPlan() {}

    static RelNode check(RelNode plan) {
        plan.accept(new RelHomogeneousShuttle() {
            @Override
            public RelNode visit(RelNode node) {
                checkNode(node);
                node.accept(EXPRESSIONS);
                return super.visit(node);
            }
        });
        return plan;
    }

    private static void checkNode(RelNode node) {
        if (node instanceof Correlate || !node.getVariablesSet().isEmpty()) {
            throw notSupported("This correlated sub-query cannot be decorrelated");
        }
        if (node instanceof Intersect || node instanceof Minus) {
            throw new QuiverException(ErrorCode.PLAN_ERROR, "The optimizer left a " + node.getRelTypeName());
        }
        if (node instanceof Join join && !JOIN_TYPES.contains(join.getJoinType())) {
            throw new QuiverException(ErrorCode.PLAN_ERROR, "The optimizer left a " + join.getJoinType() + " join");
        }
        if (!NODES.contains(node.getClass())) {
            throw notSupported("Queries that need " + node.getRelTypeName() + " are not supported");
        }
    }

    private static final RexShuttle EXPRESSIONS = new RexShuttle() {
        @Override
        public RexNode visitOver(RexOver over) {
            // window functions live in Window nodes (ProjectToWindowRule); one elsewhere is the optimizer's fault
            throw new QuiverException(ErrorCode.PLAN_ERROR, "The optimizer left a window function outside a Window: " + over);
        }

        @Override
        public RexNode visitSubQuery(RexSubQuery subQuery) {
            throw notSupported("This sub-query cannot be turned into a join");
        }

        @Override
        public RexNode visitCorrelVariable(RexCorrelVariable variable) {
            throw notSupported("This correlated sub-query cannot be decorrelated");
        }

        @Override
        public RexNode visitCall(RexCall call) {
            if (UnnestFunction.isCall(call.getOperator())) {
                throw notSupported("UNNEST is not supported here: it can only stand in a select list, or as a table (FROM t, UNNEST(t.l) AS u(x))");
            }
            if (call.getKind() == SqlKind.SEARCH) {
                throw new QuiverException(ErrorCode.PLAN_ERROR, "The optimizer left a SEARCH: " + call);
            }
            return super.visitCall(call);
        }
    };

    private static QuiverException notSupported(String message) {
        return new QuiverException(ErrorCode.NOT_SUPPORTED, message);
    }
}
