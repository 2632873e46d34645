package dev.quiver.sql.planner;

import static java.util.Objects.requireNonNull;

import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelRule;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.tools.RelBuilderFactory;

/**
 * Rewrites {@code x IS NOT DISTINCT FROM NULL} in a filter to {@code x IS NULL} (and {@code IS
 * DISTINCT FROM NULL} to {@code IS NOT NULL}), which simplification folds to FALSE where {@code x}
 * is NOT NULL. Such filters come from INTERSECT of a NULL constant: the semi join's null-safe key
 * meets the constant. Left as it is, Calcite reads it as the constant {@code x = NULL} and
 * replaces a NOT NULL {@code x} above the filter by a NULL, a projection of the wrong type.
 */
final class NullSafeNullComparison extends RelRule<NullSafeNullComparison.Config> {
    static final RelOptRule INSTANCE = new NullSafeNullComparison(new Config(RelFactories.LOGICAL_BUILDER, "NullSafeNullComparison"));

    private NullSafeNullComparison(Config config) {
        super(config);
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        LogicalFilter filter = call.rel(0);
        RexBuilder rexBuilder = filter.getCluster().getRexBuilder();
        RexNode condition = filter.getCondition().accept(new RexShuttle() {
            @Override
            public RexNode visitCall(RexCall visited) {
                RexCall node = (RexCall) super.visitCall(visited);
                boolean notDistinct = node.getKind() == SqlKind.IS_NOT_DISTINCT_FROM;
                if (!notDistinct && node.getKind() != SqlKind.IS_DISTINCT_FROM) {
                    return node;
                }
                RexNode left = node.getOperands().get(0);
                RexNode right = node.getOperands().get(1);
                RexNode other = isNull(left) ? right : isNull(right) ? left : null;
                if (other == null) {
                    return node;
                }
                return rexBuilder.makeCall(notDistinct ? SqlStdOperatorTable.IS_NULL : SqlStdOperatorTable.IS_NOT_NULL, other);
            }
        });
        if (condition != filter.getCondition()) {
            call.transformTo(filter.copy(filter.getTraitSet(), filter.getInput(), condition));
        }
    }

    private static boolean isNull(RexNode node) {
        return node instanceof RexLiteral literal && literal.isNull();
    }

    /** The rule's configuration: a LogicalFilter over anything. */
    record Config(RelBuilderFactory relBuilderFactory, String description) implements RelRule.Config {
        Config {
            requireNonNull(relBuilderFactory, "relBuilderFactory is null");
            requireNonNull(description, "description is null");
        }

        @Override
        public RelOptRule toRule() {
            return new NullSafeNullComparison(this);
        }

        @Override
        public Config withRelBuilderFactory(RelBuilderFactory factory) {
            return new Config(factory, description);
        }

        @Override
        public Config withDescription(String newDescription) {
            return new Config(relBuilderFactory, newDescription);
        }

        @Override
        public RelRule.OperandTransform operandSupplier() {
            return operand -> operand.operand(LogicalFilter.class).anyInputs();
        }

        @Override
        public Config withOperandSupplier(RelRule.OperandTransform transform) {
            throw new UnsupportedOperationException("NullSafeNullComparison matches filters only");
        }
    }
}
