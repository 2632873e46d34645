package dev.quiver.sql.planner;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.logical.LogicalSort;
import org.apache.calcite.rel.logical.LogicalTableScan;
import org.apache.calcite.rel.logical.LogicalUnion;
import org.apache.calcite.rel.logical.LogicalValues;
import org.apache.calcite.rel.logical.LogicalWindow;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexCorrelVariable;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeUtil;

/** Finds what the physical planner must never meet in a logical plan. */
final class PlanInvariants {
    private static final Set<Class<?>> ALLOWED = Set.of(LogicalTableScan.class, LogicalFilter.class, LogicalProject.class,
            LogicalJoin.class, LogicalAggregate.class, LogicalSort.class, LogicalUnion.class, LogicalValues.class, LogicalWindow.class);
    private static final Set<JoinRelType> JOIN_TYPES = Set.of(JoinRelType.INNER, JoinRelType.LEFT, JoinRelType.FULL,
            JoinRelType.SEMI, JoinRelType.ANTI);

    private PlanInvariants() {}

    /** Violations, one line each; empty for a plan the engine can take. */
    static List<String> violations(RelNode plan) {
        List<String> violations = new ArrayList<>();
        RexShuttle rexChecker = new RexShuttle() {
            @Override
            public RexNode visitCall(RexCall call) {
                if (call.getKind() == SqlKind.SEARCH) {
                    violations.add("SEARCH: " + call);
                }
                checkType(call);
                return super.visitCall(call);
            }

            @Override
            public RexNode visitLiteral(RexLiteral literal) {
                checkType(literal);
                return literal;
            }

            @Override
            public RexNode visitOver(RexOver over) {
                violations.add("window function outside a Window: " + over);
                return over;
            }

            @Override
            public RexNode visitSubQuery(RexSubQuery subQuery) {
                violations.add("sub-query: " + subQuery);
                return subQuery;
            }

            @Override
            public RexNode visitCorrelVariable(RexCorrelVariable variable) {
                violations.add("correlation variable: " + variable);
                return variable;
            }

            @Override
            public RexNode visitDynamicParam(RexDynamicParam param) {
                violations.add("dynamic parameter: " + param);
                return param;
            }

            private void checkType(RexNode node) {
                if (SqlTypeUtil.isInterval(node.getType())) {
                    violations.add("interval: " + node);
                }
            }
        };
        plan.accept(new RelHomogeneousShuttle() {
            @Override
            public RelNode visit(RelNode other) {
                if (!ALLOWED.contains(other.getClass())) {
                    violations.add("node: " + other.getClass().getSimpleName());
                }
                if (other instanceof Join join && !JOIN_TYPES.contains(join.getJoinType())) {
                    violations.add("join type: " + join.getJoinType());
                }
                if (!other.getVariablesSet().isEmpty()) {
                    violations.add("variables set on " + other.getRelTypeName());
                }
                other.accept(rexChecker);
                return super.visit(other);
            }
        });
        return violations;
    }
}
