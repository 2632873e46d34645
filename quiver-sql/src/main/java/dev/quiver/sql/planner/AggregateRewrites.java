package dev.quiver.sql.planner;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;

/**
 * Rewrites aggregate calls the engine has no operator for into ones it has:
 * <ul>
 * <li>{@code agg(x) FILTER (WHERE f)} becomes {@code agg(CASE WHEN f THEN x END)} for aggregates
 *     that skip NULLs ({@code COUNT(*) FILTER (WHERE f)} counts {@code CASE WHEN f THEN 1 END});
 * <li>{@code LITERAL_AGG(v)}, which sub-query removal uses to mark matched rows, becomes the
 *     constant {@code v} in a Project above the aggregate.
 * </ul>
 */
final class AggregateRewrites extends RelHomogeneousShuttle {
    private static final Set<SqlKind> NULL_SKIPPING = Set.of(SqlKind.COUNT, SqlKind.SUM, SqlKind.SUM0, SqlKind.AVG, SqlKind.MIN, SqlKind.MAX);

    private final RexBuilder rexBuilder;

    private AggregateRewrites(RexBuilder rexBuilder) {
        this.rexBuilder = rexBuilder;
    }

    static RelNode apply(RelNode rel) {
        return rel.accept(new AggregateRewrites(rel.getCluster().getRexBuilder()));
    }

    @Override
    public RelNode visit(RelNode other) {
        RelNode node = super.visit(other);
        if (node instanceof LogicalAggregate aggregate) {
            return removeLiteralAggregates(filtersToCase(aggregate));
        }
        return node;
    }

    private LogicalAggregate filtersToCase(LogicalAggregate aggregate) {
        if (aggregate.getAggCallList().stream().noneMatch(call -> call.filterArg >= 0 && NULL_SKIPPING.contains(call.getAggregation().getKind()))) {
            return aggregate;
        }
        RelNode input = aggregate.getInput();
        List<RexNode> projects = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (RelDataTypeField field : input.getRowType().getFieldList()) {
            projects.add(new RexInputRef(field.getIndex(), field.getType()));
            names.add(field.getName());
        }
        List<AggregateCall> calls = new ArrayList<>();
        for (AggregateCall call : aggregate.getAggCallList()) {
            if (call.filterArg < 0 || !NULL_SKIPPING.contains(call.getAggregation().getKind())) {
                calls.add(call);
                continue;
            }
            RexNode filter = projects.get(call.filterArg);
            List<RexNode> values = call.getArgList().isEmpty()
                    ? List.of(rexBuilder.makeExactLiteral(BigDecimal.ONE))
                    : call.getArgList().stream().map(projects::get).toList();
            List<Integer> args = new ArrayList<>();
            for (RexNode value : values) {
                RelDataType type = rexBuilder.getTypeFactory().createTypeWithNullability(value.getType(), true);
                args.add(projects.size());
                names.add("$f" + projects.size());
                projects.add(rexBuilder.makeCall(SqlStdOperatorTable.CASE, filter, value, rexBuilder.makeNullLiteral(type)));
            }
            calls.add(call.copy(args, -1));
        }
        RelNode project = LogicalProject.create(input, List.of(), projects, names, Set.of());
        return LogicalAggregate.create(project, aggregate.getHints(), aggregate.getGroupSet(), aggregate.getGroupSets(), calls);
    }

    private RelNode removeLiteralAggregates(LogicalAggregate aggregate) {
        List<AggregateCall> calls = aggregate.getAggCallList();
        if (calls.stream().noneMatch(call -> call.getAggregation().getKind() == SqlKind.LITERAL_AGG)) {
            return aggregate;
        }
        List<AggregateCall> kept = calls.stream().filter(call -> call.getAggregation().getKind() != SqlKind.LITERAL_AGG).toList();
        LogicalAggregate reduced = LogicalAggregate.create(aggregate.getInput(), aggregate.getHints(), aggregate.getGroupSet(),
                aggregate.getGroupSets(), kept);
        int groupCount = aggregate.getGroupCount();
        List<RexNode> projects = new ArrayList<>();
        for (int i = 0; i < groupCount; i++) {
            projects.add(rexBuilder.makeInputRef(reduced, i));
        }
        int next = groupCount;
        for (AggregateCall call : calls) {
            if (call.getAggregation().getKind() == SqlKind.LITERAL_AGG) {
                RexNode literal = call.rexList.get(0);
                projects.add(rexBuilder.makeCast(call.getType(), literal, true, false));
            } else {
                projects.add(rexBuilder.makeInputRef(reduced, next++));
            }
        }
        return LogicalProject.create(reduced, List.of(), projects, aggregate.getRowType().getFieldNames(), Set.of());
    }
}
