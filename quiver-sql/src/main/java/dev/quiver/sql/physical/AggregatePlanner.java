package dev.quiver.sql.physical;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.expr.LiteralExpr;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.expr.function.ConditionalFunctions;
import dev.quiver.engine.operator.ProjectionExec;
import dev.quiver.engine.operator.aggregate.AggregateExpr;
import dev.quiver.engine.operator.aggregate.AggregateFunction;
import dev.quiver.engine.operator.aggregate.AggregateMode;
import dev.quiver.engine.operator.aggregate.HashAggregateExec;
import dev.quiver.engine.operator.exchange.CoalescePartitionsExec;
import dev.quiver.engine.operator.exchange.RepartitionExec;
import dev.quiver.engine.types.QuiverTypes;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.sql.SqlKind;

/**
 * GROUP BY as a two-phase hash aggregation: PARTIAL per input partition, then a repartition on the
 * group keys (or, without keys, a coalesce) and FINAL. Aggregates without a partial state (DISTINCT,
 * the holistic percentiles, MODE and STRING_AGG) need all of a group's rows in one place, so their
 * input is repartitioned first and aggregated in one SINGLE step.
 *
 * <p>GROUPING SETS, ROLLUP and CUBE aggregate an {@link GroupingSets#expand expanded} input on the
 * keys plus the grouping set's ordinal, in the same two phases; GROUPING() values are then
 * constants per grouping set.
 */
final class AggregatePlanner {
    private AggregatePlanner() {}

    static ExecutionPlan plan(Aggregate aggregate, ExecutionPlan input, RexTranslator inputs, int targetPartitions) {
        List<String> fieldNames = aggregate.getRowType().getFieldNames();
        GroupingSets.Keys keys = aggregate.getGroupType() == Aggregate.Group.SIMPLE
                ? GroupingSets.simple(aggregate, input, inputs, fieldNames)
                : GroupingSets.expand(aggregate, input, inputs, fieldNames);
        AggregateCalls calls = new AggregateCalls(aggregate.getInput(), inputs);
        List<AggregateExpr> aggregates = new ArrayList<>();
        // Per output aggregate column: the index among the computed aggregates, or how to compute it.
        List<Object> outputs = new ArrayList<>();
        boolean needsProjection = keys.groupingSet() >= 0;
        int position = aggregate.getGroupCount();
        for (AggregateCall call : aggregate.getAggCallList()) {
            String name = fieldNames.get(position++);
            SqlKind kind = call.getAggregation().getKind();
            if (kind == SqlKind.LITERAL_AGG) {
                outputs.add(literal(call));
                needsProjection = true;
            } else if (kind == SqlKind.GROUPING) {
                outputs.add(keys.grouping(call.getArgList(), name));
                needsProjection = true;
            } else if (kind == SqlKind.SINGLE_VALUE) {
                // MAX of the value (the only one, if any) and the row count it is checked against.
                outputs.add(new SingleValue(aggregates.size(), aggregates.size() + 1));
                AggregateExpr value = calls.translate(call, name);
                aggregates.add(new AggregateExpr(AggregateFunction.MAX, value.args(), false, name, value.type()));
                aggregates.add(new AggregateExpr(AggregateFunction.COUNT, List.of(), false, name + "$rows", QuiverTypes.INT64));
                needsProjection = true;
            } else if (kind == SqlKind.GROUP_ID || kind == SqlKind.GROUPING_ID) {
                throw new QuiverException(ErrorCode.NOT_SUPPORTED, call.getAggregation().getName() + " is not supported; use GROUPING(...)");
            } else {
                outputs.add(kind == SqlKind.SUM0 ? new SumZero(aggregates.size()) : aggregates.size());
                aggregates.add(calls.translate(call, name));
                needsProjection |= kind == SqlKind.SUM0;
            }
        }
        ExecutionPlan plan = twoPhase(keys, aggregates, targetPartitions);
        return needsProjection ? finish(plan, keys, outputs, fieldNames) : plan;
    }

    /** Where the parts of a {@code SINGLE_VALUE} aggregate are among the computed aggregates. */
    private record SingleValue(int value, int rowCount) {}

    /** {@code $SUM0} (SUM that gives 0 instead of NULL over no rows) of the computed aggregate at {@code index}. */
    private record SumZero(int index) {}

    /** {@code LITERAL_AGG(c)}: the constant c for every group (Calcite's marker for "a row exists"). */
    private static LiteralExpr literal(AggregateCall call) {
        if (call.rexList.size() != 1 || !(call.rexList.get(0) instanceof RexLiteral literal)) {
            throw new QuiverException(ErrorCode.NOT_SUPPORTED, "The aggregate " + call + " is not supported");
        }
        ArrowType type = TypeMapping.toArrow(call.getType());
        return new LiteralExpr(Literals.value(literal, type), type);
    }

    private static ExecutionPlan twoPhase(GroupingSets.Keys keys, List<AggregateExpr> aggregates, int targetPartitions) {
        List<PhysicalExpr> groupExprs = keys.exprs();
        List<String> groupNames = keys.names();
        ExecutionPlan input = keys.input();
        int partitions = input.outputPartitioning().partitionCount();
        if (partitions == 1) {
            return new HashAggregateExec(AggregateMode.SINGLE, groupExprs, groupNames, aggregates, input, keys.seedFlag());
        }
        if (aggregates.stream().anyMatch(aggregate -> !aggregate.decomposable())) {
            ExecutionPlan gathered = groupExprs.isEmpty()
                    ? new CoalescePartitionsExec(input)
                    : new RepartitionExec(input, new Partitioning.Hash(groupExprs, targetPartitions));
            return new HashAggregateExec(AggregateMode.SINGLE, groupExprs, groupNames, aggregates, gathered, keys.seedFlag());
        }
        HashAggregateExec partial = new HashAggregateExec(AggregateMode.PARTIAL, groupExprs, groupNames, aggregates, input, keys.seedFlag());
        List<PhysicalExpr> partialKeys = new ArrayList<>();
        for (int i = 0; i < groupExprs.size(); i++) {
            partialKeys.add(RexTranslator.column(partial.schema(), i));
        }
        ExecutionPlan gathered = groupExprs.isEmpty()
                ? new CoalescePartitionsExec(partial)
                : new RepartitionExec(partial, new Partitioning.Hash(partialKeys, targetPartitions));
        return new HashAggregateExec(AggregateMode.FINAL, partialKeys, groupNames, aggregates, gathered);
    }

    /**
     * Projects the aggregate's output into the Aggregate's columns: the group keys (without a
     * grouping set's ordinal), constants for LITERAL_AGG, GROUPING() from the ordinal, the checked
     * value for SINGLE_VALUE, and {@code $SUM0} as COALESCE(sum, 0).
     */
    private static ExecutionPlan finish(ExecutionPlan plan, GroupingSets.Keys keys, List<Object> outputs, List<String> names) {
        int groupCount = keys.exprs().size();
        List<PhysicalExpr> exprs = new ArrayList<>();
        for (int i = 0; i < groupCount; i++) {
            if (i != keys.groupingSet()) {
                exprs.add(RexTranslator.column(plan.schema(), i));
            }
        }
        for (Object output : outputs) {
            if (output instanceof LiteralExpr literal) {
                exprs.add(literal);
            } else if (output instanceof GroupingSets.Grouping grouping) {
                exprs.add(grouping.expr(RexTranslator.column(plan.schema(), keys.groupingSet())));
            } else if (output instanceof SingleValue single) {
                exprs.add(new AtMostOneRowExpr(RexTranslator.column(plan.schema(), groupCount + single.rowCount()),
                        RexTranslator.column(plan.schema(), groupCount + single.value())));
            } else if (output instanceof SumZero sum) {
                PhysicalExpr column = RexTranslator.column(plan.schema(), groupCount + sum.index());
                exprs.add(ConditionalFunctions.COALESCE.call(List.of(column, zero(column.type())), column.type()));
            } else {
                exprs.add(RexTranslator.column(plan.schema(), groupCount + (Integer) output));
            }
        }
        return new ProjectionExec(exprs, names, plan);
    }

    private static LiteralExpr zero(ArrowType type) {
        return new LiteralExpr(Literals.convertNumber(0, type), type);
    }
}
