package dev.quiver.sql.physical;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.expr.LiteralExpr;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.operator.window.WindowFunction;
import dev.quiver.engine.types.QuiverTypes;
import java.util.List;
import java.util.function.IntFunction;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;

/**
 * The engine's {@link WindowFunction} of one call of a Calcite {@link Window} group: ranking
 * functions, LAG/LEAD, FIRST/LAST/NTH_VALUE, and every aggregate the GROUP BY planner knows
 * ({@link AggregateCalls}), so an aggregate added there works over a window too.
 */
final class WindowFunctions {
    private WindowFunctions() {}

    /**
     * @param operand the engine expression of an operand index (an input column or a constant)
     * @param aggregate the call as an {@link AggregateCall}, for aggregate functions
     */
    static WindowFunction of(Window.RexWinAggCall call, IntFunction<PhysicalExpr> operand, AggregateCall aggregate, AggregateCalls aggregates,
            String name) {
        List<RexNode> operands = call.getOperands();
        return switch (call.getOperator().getKind()) {
            case ROW_NUMBER -> new WindowFunction.RowNumber();
            case RANK -> new WindowFunction.Rank(WindowFunction.Rank.Kind.RANK);
            case DENSE_RANK -> new WindowFunction.Rank(WindowFunction.Rank.Kind.DENSE_RANK);
            case PERCENT_RANK -> new WindowFunction.Rank(WindowFunction.Rank.Kind.PERCENT_RANK);
            case CUME_DIST -> new WindowFunction.Rank(WindowFunction.Rank.Kind.CUME_DIST);
            case NTILE -> new WindowFunction.Ntile(integer(arg(operands, 0, operand), "NTILE"));
            case LAG, LEAD -> lagLead(call, operands, operand);
            case FIRST_VALUE -> frameValue(WindowFunction.FrameValue.Position.FIRST, call, operands, operand);
            case LAST_VALUE -> frameValue(WindowFunction.FrameValue.Position.LAST, call, operands, operand);
            case NTH_VALUE -> frameValue(WindowFunction.FrameValue.Position.NTH, call, operands, operand);
            default -> new WindowFunction.Aggregate(aggregates.translate(aggregate, name));
        };
    }

    private static PhysicalExpr arg(List<RexNode> operands, int index, IntFunction<PhysicalExpr> operand) {
        return operand.apply(((RexInputRef) operands.get(index)).getIndex());
    }

    private static PhysicalExpr integer(PhysicalExpr expr, String function) {
        if (expr.type() instanceof ArrowType.Null) {
            return new LiteralExpr(null, QuiverTypes.INT64);
        }
        if (!QuiverTypes.isInteger(expr.type())) {
            throw new QuiverException(ErrorCode.TYPE_MISMATCH, "The argument of " + function + " must be an integer, not "
                    + QuiverTypes.sqlName(expr.type()));
        }
        return expr;
    }

    private static WindowFunction lagLead(Window.RexWinAggCall call, List<RexNode> operands, IntFunction<PhysicalExpr> operand) {
        String function = call.getOperator().getName();
        PhysicalExpr value = arg(operands, 0, operand);
        PhysicalExpr offset = operands.size() > 1 ? integer(arg(operands, 1, operand), function) : new LiteralExpr(1L, QuiverTypes.INT64);
        PhysicalExpr defaultValue = operands.size() > 2
                ? RexTranslator.castTo(arg(operands, 2, operand), value.type()) : new LiteralExpr(null, value.type());
        return new WindowFunction.LagLead(call.getOperator().getKind() == org.apache.calcite.sql.SqlKind.LEAD, value, offset, defaultValue,
                call.ignoreNulls);
    }

    private static WindowFunction frameValue(WindowFunction.FrameValue.Position position, Window.RexWinAggCall call, List<RexNode> operands,
            IntFunction<PhysicalExpr> operand) {
        PhysicalExpr value = arg(operands, 0, operand);
        PhysicalExpr n = position == WindowFunction.FrameValue.Position.NTH
                ? integer(arg(operands, 1, operand), "NTH_VALUE") : new LiteralExpr(1L, QuiverTypes.INT64);
        return new WindowFunction.FrameValue(position, value, n, call.ignoreNulls);
    }
}
