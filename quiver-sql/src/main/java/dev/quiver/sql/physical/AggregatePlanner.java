package dev.quiver.sql.physical;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.expr.CaseExpr;
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
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.sql.SqlKind;

/**
 * GROUP BY as a two-phase hash aggregation: PARTIAL per input partition, then a repartition on the
 * group keys (or, without keys, a coalesce) and FINAL. DISTINCT aggregates have no partial state,
 * so their input is repartitioned first and aggregated in one SINGLE step.
 */
final class AggregatePlanner {
    private AggregatePlanner() {}

    static ExecutionPlan plan(Aggregate aggregate, ExecutionPlan input, RexTranslator inputs, int targetPartitions) {
        if (aggregate.getGroupType() != Aggregate.Group.SIMPLE) {
            throw new QuiverException(ErrorCode.NOT_SUPPORTED, "GROUPING SETS, ROLLUP and CUBE are not supported");
        }
        List<String> fieldNames = aggregate.getRowType().getFieldNames();
        List<PhysicalExpr> groupExprs = new ArrayList<>();
        List<String> groupNames = new ArrayList<>();
        int position = 0;
        for (int key : aggregate.getGroupSet()) {
            groupExprs.add(inputs.column(key));
            groupNames.add(fieldNames.get(position++));
        }
        List<AggregateExpr> aggregates = new ArrayList<>();
        List<Boolean> sumZero = new ArrayList<>();
        // Per output aggregate column: the index among the computed aggregates, or a constant.
        List<Object> outputs = new ArrayList<>();
        boolean distinct = false;
        for (AggregateCall call : aggregate.getAggCallList()) {
            String name = fieldNames.get(position++);
            if (call.getAggregation().getKind() == SqlKind.LITERAL_AGG) {
                outputs.add(literal(call));
                continue;
            }
            if (call.getAggregation().getKind() == SqlKind.SINGLE_VALUE) {
                // MAX of the value (the only one, if any) and the row count it is checked against.
                outputs.add(new SingleValue(aggregates.size(), aggregates.size() + 1));
                AggregateExpr value = aggregateExpr(call, inputs, name);
                aggregates.add(new AggregateExpr(AggregateFunction.MAX, value.args(), false, name, value.type()));
                aggregates.add(new AggregateExpr(AggregateFunction.COUNT, List.of(), false, name + "$rows", QuiverTypes.INT64));
                sumZero.add(false);
                sumZero.add(false);
                continue;
            }
            outputs.add(aggregates.size());
            aggregates.add(aggregateExpr(call, inputs, name));
            sumZero.add(call.getAggregation().getKind() == SqlKind.SUM0);
            distinct |= call.isDistinct();
        }
        ExecutionPlan plan = twoPhase(groupExprs, groupNames, aggregates, distinct, input, targetPartitions);
        boolean computedOnly = outputs.stream().allMatch(o -> o instanceof Integer);
        return sumZero.contains(true) || !computedOnly ? finish(plan, groupExprs.size(), outputs, sumZero, fieldNames) : plan;
    }

    /** Where the parts of a {@code SINGLE_VALUE} aggregate are among the computed aggregates. */
    private record SingleValue(int value, int rowCount) {}

    /** {@code LITERAL_AGG(c)}: the constant c for every group (Calcite's marker for "a row exists"). */
    private static LiteralExpr literal(AggregateCall call) {
        if (call.rexList.size() != 1 || !(call.rexList.get(0) instanceof RexLiteral literal)) {
            throw new QuiverException(ErrorCode.NOT_SUPPORTED, "The aggregate " + call + " is not supported");
        }
        ArrowType type = TypeMapping.toArrow(call.getType());
        return new LiteralExpr(Literals.value(literal, type), type);
    }

    private static ExecutionPlan twoPhase(List<PhysicalExpr> groupExprs, List<String> groupNames, List<AggregateExpr> aggregates,
            boolean distinct, ExecutionPlan input, int targetPartitions) {
        int partitions = input.outputPartitioning().partitionCount();
        if (partitions == 1) {
            return new HashAggregateExec(AggregateMode.SINGLE, groupExprs, groupNames, aggregates, input);
        }
        if (distinct) {
            ExecutionPlan gathered = groupExprs.isEmpty()
                    ? new CoalescePartitionsExec(input)
                    : new RepartitionExec(input, new Partitioning.Hash(groupExprs, targetPartitions));
            return new HashAggregateExec(AggregateMode.SINGLE, groupExprs, groupNames, aggregates, gathered);
        }
        HashAggregateExec partial = new HashAggregateExec(AggregateMode.PARTIAL, groupExprs, groupNames, aggregates, input);
        List<PhysicalExpr> partialKeys = new ArrayList<>();
        for (int i = 0; i < groupExprs.size(); i++) {
            partialKeys.add(RexTranslator.column(partial.schema(), i));
        }
        ExecutionPlan gathered = groupExprs.isEmpty()
                ? new CoalescePartitionsExec(partial)
                : new RepartitionExec(partial, new Partitioning.Hash(partialKeys, targetPartitions));
        return new HashAggregateExec(AggregateMode.FINAL, partialKeys, groupNames, aggregates, gathered);
    }

    /** The engine form of one aggregate call over {@code inputs} (also used for aggregates over a window). */
    static AggregateExpr aggregateExpr(AggregateCall call, RexTranslator inputs, String name) {
        if (!call.collation.getFieldCollations().isEmpty()) {
            throw new QuiverException(ErrorCode.NOT_SUPPORTED, "Aggregates WITHIN GROUP (ORDER BY ...) are not supported: " + call);
        }
        AggregateFunction function = switch (call.getAggregation().getKind()) {
            case COUNT -> AggregateFunction.COUNT;
            case SUM, SUM0 -> AggregateFunction.SUM;
            case AVG -> AggregateFunction.AVG;
            case MIN -> AggregateFunction.MIN;
            case MAX, SINGLE_VALUE -> AggregateFunction.MAX;
            default -> throw new QuiverException(ErrorCode.NOT_SUPPORTED, "The aggregate function " + call.getAggregation().getName() + " is not supported");
        };
        if (call.getArgList().size() > 1) {
            throw new QuiverException(ErrorCode.NOT_SUPPORTED, call.getAggregation().getName() + " with several arguments is not supported");
        }
        List<PhysicalExpr> args = new ArrayList<>();
        for (int arg : call.getArgList()) {
            args.add(inputs.column(arg));
        }
        if (call.filterArg >= 0) {
            // agg(x) FILTER (WHERE f) is agg(CASE WHEN f THEN x END): rows failing f become NULL,
            // which every aggregate ignores (COUNT(*) counts a non-null constant instead).
            if (args.isEmpty()) {
                args.add(new LiteralExpr(1, QuiverTypes.INT32));
            }
            PhysicalExpr condition = inputs.column(call.filterArg);
            List<PhysicalExpr> filtered = new ArrayList<>();
            for (PhysicalExpr arg : args) {
                filtered.add(new CaseExpr(List.of(new CaseExpr.WhenThen(condition, arg)), Optional.empty(), arg.type()));
            }
            args = filtered;
        }
        return new AggregateExpr(function, args, call.isDistinct(), name, TypeMapping.toArrow(call.getType()));
    }

    /**
     * Projects the aggregate's output into the Aggregate's columns: constants for LITERAL_AGG, the
     * checked value for SINGLE_VALUE, and
     * {@code $SUM0} (SUM that gives 0 instead of NULL over no rows) as COALESCE(sum, 0).
     */
    private static ExecutionPlan finish(ExecutionPlan plan, int groupCount, List<Object> outputs, List<Boolean> sumZero,
            List<String> names) {
        List<PhysicalExpr> exprs = new ArrayList<>();
        for (int i = 0; i < groupCount; i++) {
            exprs.add(RexTranslator.column(plan.schema(), i));
        }
        for (Object output : outputs) {
            if (output instanceof LiteralExpr literal) {
                exprs.add(literal);
                continue;
            }
            if (output instanceof SingleValue single) {
                exprs.add(new AtMostOneRowExpr(RexTranslator.column(plan.schema(), groupCount + single.rowCount()),
                        RexTranslator.column(plan.schema(), groupCount + single.value())));
                continue;
            }
            int index = (Integer) output;
            PhysicalExpr column = RexTranslator.column(plan.schema(), groupCount + index);
            if (sumZero.get(index)) {
                column = ConditionalFunctions.COALESCE.call(List.of(column, zero(column.type())), column.type());
            }
            exprs.add(column);
        }
        return new ProjectionExec(exprs, names, plan);
    }

    private static LiteralExpr zero(ArrowType type) {
        return new LiteralExpr(Literals.convertNumber(0, type), type);
    }
}
