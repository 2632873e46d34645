package dev.quiver.sql.planner;

import dev.quiver.engine.expr.kernel.DateKernels;
import dev.quiver.sql.physical.TemporalLiterals;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;

/**
 * Compares a DATE with a constant TIMESTAMP as dates: {@code CAST(d AS TIMESTAMP) <= TIMESTAMP
 * '1998-09-02 00:00:00'} becomes {@code d <= DATE '1998-09-02'}. {@code date ± interval} is a
 * TIMESTAMP (as in DuckDB and PostgreSQL), so TPC-H's {@code l_shipdate <= date '1998-12-01' -
 * interval '90' day} compares a cast column without this; as dates it needs no cast per row and
 * the scan can prune on the column's statistics. The results are the same: midnight of d is at
 * most t exactly when d is at most t's day, less than t when d is before t rounded up to a day.
 * A DATE compared with a TIMESTAMP without a cast is narrowed the same way. Runs after Sargs are
 * expanded.
 */
final class DateComparisonNarrowing extends RelHomogeneousShuttle {
    private final RexShuttle narrower;

    private DateComparisonNarrowing(RexShuttle narrower) {
        this.narrower = narrower;
    }

    static RelNode apply(RelNode rel) {
        return rel.accept(new DateComparisonNarrowing(new Narrower(rel.getCluster().getRexBuilder())));
    }

    @Override
    public RelNode visit(RelNode other) {
        return super.visit(other).accept(narrower);
    }

    private static final class Narrower extends RexShuttle {
        private final RexBuilder rexBuilder;

        Narrower(RexBuilder rexBuilder) {
            this.rexBuilder = rexBuilder;
        }

        @Override
        public RexNode visitCall(RexCall call) {
            RexCall visited = (RexCall) super.visitCall(call);
            SqlKind kind = visited.getKind();
            if (visited.getOperands().size() != 2 || !(kind == SqlKind.LESS_THAN || kind == SqlKind.LESS_THAN_OR_EQUAL
                    || kind == SqlKind.GREATER_THAN || kind == SqlKind.GREATER_THAN_OR_EQUAL || kind == SqlKind.EQUALS)) {
                return visited;
            }
            RexNode left = visited.getOperands().get(0);
            RexNode right = visited.getOperands().get(1);
            if (castDate(left) != null && timestampLiteral(right)) {
                return narrowed(kind, castDate(left), TemporalLiterals.micros((RexLiteral) right), visited);
            }
            if (castDate(right) != null && timestampLiteral(left)) {
                return narrowed(kind.reverse(), castDate(right), TemporalLiterals.micros((RexLiteral) left), visited);
            }
            return visited;
        }

        /** {@code date kind t} as a comparison of dates, or {@code original} when there is none (equality off midnight). */
        private RexNode narrowed(SqlKind kind, RexNode date, long micros, RexCall original) {
            int floor = DateKernels.days(micros);
            boolean midnight = DateKernels.microsOfDay(micros) == 0;
            int ceiling = midnight ? floor : floor + 1;
            return switch (kind) {
                case LESS_THAN_OR_EQUAL -> compare(SqlStdOperatorTable.LESS_THAN_OR_EQUAL, date, floor);
                case LESS_THAN -> compare(SqlStdOperatorTable.LESS_THAN, date, ceiling);
                case GREATER_THAN_OR_EQUAL -> compare(SqlStdOperatorTable.GREATER_THAN_OR_EQUAL, date, ceiling);
                case GREATER_THAN -> compare(SqlStdOperatorTable.GREATER_THAN, date, floor);
                case EQUALS -> midnight ? compare(SqlStdOperatorTable.EQUALS, date, floor) : original;
                default -> original;
            };
        }

        private RexNode compare(SqlOperator op, RexNode date, int days) {
            return rexBuilder.makeCall(op, date, TemporalLiterals.date(rexBuilder, days));
        }

        /** A DATE compared as a TIMESTAMP: {@code CAST(date AS TIMESTAMP)}'s operand, or a DATE itself; else null. */
        private static RexNode castDate(RexNode node) {
            if (node.getType().getSqlTypeName() == SqlTypeName.DATE) {
                return node;
            }
            if (node.getKind() == SqlKind.CAST && node.getType().getSqlTypeName() == SqlTypeName.TIMESTAMP) {
                RexNode operand = ((RexCall) node).getOperands().get(0);
                return operand.getType().getSqlTypeName() == SqlTypeName.DATE ? operand : null;
            }
            return null;
        }

        private static boolean timestampLiteral(RexNode node) {
            return node instanceof RexLiteral literal && !literal.isNull() && literal.getType().getSqlTypeName() == SqlTypeName.TIMESTAMP;
        }
    }
}
