package dev.quiver.sql.planner;

import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;

/**
 * Replaces {@code IS NOT DISTINCT FROM(a, b)} by {@code =(a, b)} where neither side can be NULL.
 * Decorrelation and INTERSECT produce null-safe join keys even over NOT NULL columns; plain
 * equality is what hash joins handle best.
 */
final class NullSafeEquality extends RelHomogeneousShuttle {
    private final RexShuttle rewriter;

    private NullSafeEquality(RexBuilder rexBuilder) {
        this.rewriter = new RexShuttle() {
            @Override
            public RexNode visitCall(RexCall call) {
                RexCall visited = (RexCall) super.visitCall(call);
                if (visited.getKind() == SqlKind.IS_NOT_DISTINCT_FROM
                        && visited.getOperands().stream().noneMatch(operand -> operand.getType().isNullable())) {
                    return rexBuilder.makeCall(SqlStdOperatorTable.EQUALS, visited.getOperands());
                }
                return visited;
            }
        };
    }

    static RelNode apply(RelNode rel) {
        return rel.accept(new NullSafeEquality(rel.getCluster().getRexBuilder()));
    }

    @Override
    public RelNode visit(RelNode other) {
        return super.visit(other).accept(rewriter);
    }
}
