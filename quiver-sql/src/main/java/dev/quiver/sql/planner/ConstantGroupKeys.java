package dev.quiver.sql.planner;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.calcite.rel.RelCollations;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.util.ImmutableBitSet;

/**
 * Takes the constant keys out of every grouping, before decorrelation: {@code SELECT DISTINCT 1, x}
 * or {@code GROUP BY 1, 2} over a projection of literals. Calcite's decorrelator drops such keys
 * itself and gets it wrong when the query holds a correlated sub-query: with only constant keys
 * it groups by nothing (one row over an empty input, where grouping gives none), and with
 * constants among other keys it puts them back at their input positions (a wrong row type or an
 * index error). Here a grouping with other keys keeps those and projects the constants back in
 * place; a grouping by constants alone becomes an aggregate without keys that also counts its
 * input rows, kept only where that count is above zero.
 */
final class ConstantGroupKeys extends RelHomogeneousShuttle {
    private final RexBuilder rexBuilder;

    private ConstantGroupKeys(RexBuilder rexBuilder) {
        this.rexBuilder = rexBuilder;
    }

    static RelNode apply(RelNode rel) {
        return rel.accept(new ConstantGroupKeys(rel.getCluster().getRexBuilder()));
    }

    @Override
    public RelNode visit(RelNode other) {
        RelNode node = super.visit(other);
        if (node instanceof LogicalAggregate aggregate && aggregate.getGroupType() == Aggregate.Group.SIMPLE
                && aggregate.getInput() instanceof LogicalProject input) {
            ImmutableBitSet constants = constantKeys(aggregate, input);
            if (!constants.isEmpty()) {
                return rewrite(aggregate, constants, input.getProjects());
            }
        }
        return node;
    }

    private static ImmutableBitSet constantKeys(LogicalAggregate aggregate, LogicalProject input) {
        ImmutableBitSet.Builder constants = ImmutableBitSet.builder();
        for (int key : aggregate.getGroupSet()) {
            if (input.getProjects().get(key) instanceof RexLiteral) {
                constants.set(key);
            }
        }
        return constants.build();
    }

    private RelNode rewrite(LogicalAggregate aggregate, ImmutableBitSet constants, List<RexNode> inputProjects) {
        ImmutableBitSet keys = aggregate.getGroupSet().except(constants);
        List<AggregateCall> calls = new ArrayList<>(aggregate.getAggCallList());
        if (keys.isEmpty()) {
            calls.add(AggregateCall.create(SqlStdOperatorTable.COUNT, false, false, false, List.of(), List.of(), -1, null,
                    RelCollations.EMPTY, 0, aggregate.getInput(), null, "$rows"));
        }
        List<AggregateCall> adapted = new ArrayList<>();
        for (AggregateCall call : calls) {
            adapted.add(call.adaptTo(aggregate.getInput(), call.getArgList(), call.filterArg, false, keys.isEmpty()));
        }
        RelNode grouped = LogicalAggregate.create(aggregate.getInput(), aggregate.getHints(), keys, null, adapted);
        if (keys.isEmpty()) {
            RexNode rows = rexBuilder.makeInputRef(grouped, adapted.size() - 1);
            grouped = LogicalFilter.create(grouped, rexBuilder.makeCall(SqlStdOperatorTable.GREATER_THAN, rows,
                    rexBuilder.makeExactLiteral(BigDecimal.ZERO)));
        }
        List<RexNode> projects = new ArrayList<>();
        int next = 0;
        for (int key : aggregate.getGroupSet()) {
            projects.add(constants.get(key) ? inputProjects.get(key) : rexBuilder.makeInputRef(grouped, next++));
        }
        List<RelDataTypeField> fields = aggregate.getRowType().getFieldList();
        for (int i = 0; i < aggregate.getAggCallList().size(); i++) {
            RexNode value = rexBuilder.makeInputRef(grouped, next++);
            // without keys MIN/MAX of a NOT NULL column become nullable; rows whose count is zero are gone
            RelDataTypeField field = fields.get(aggregate.getGroupCount() + i);
            projects.add(value.getType().isNullable() && !field.getType().isNullable() ? rexBuilder.makeNotNull(value) : value);
        }
        return LogicalProject.create(grouped, List.of(), projects, aggregate.getRowType().getFieldNames(), Set.of());
    }
}
