package dev.quiver.sql.physical;

import dev.quiver.engine.batch.VectorValues;
import dev.quiver.engine.config.DivisionByZero;
import dev.quiver.engine.expr.PhysicalExpr;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexExecutor;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.type.SqlTypeUtil;

/**
 * Constant folding through the engine: Calcite hands over an expression without column
 * references, it is translated like any other ({@link RexTranslator}), evaluated by the engine's
 * kernels on a one-row batch, and the value becomes a literal. A constant therefore folds to
 * exactly what the engine computes at run time. When evaluation fails (overflow, a bad cast,
 * division by zero), the expression is left as it is, so that running the query raises the same
 * error with the same code; when the whole cannot be evaluated, its operands are folded one by
 * one.
 *
 * <p>The one exception: an expression of an INTERVAL type (the engine has no interval values;
 * {@code interval '1' day * 3}) is folded by Calcite's own executor into an interval literal,
 * which is the only form in which intervals reach the engine.
 *
 * <p>Stateless and thread-safe; each {@link #reduce} call uses its own small allocator.
 */
public final class EngineRexExecutor implements RexExecutor {
    public static final EngineRexExecutor INSTANCE = new EngineRexExecutor();

    private static final Schema NO_COLUMNS = new Schema(List.of());
    /** A constant whose value needs more is left to run time. */
    private static final long MEMORY_LIMIT = 16L << 20;

    private EngineRexExecutor() {}

    @Override
    public void reduce(RexBuilder rexBuilder, List<RexNode> constExps, List<RexNode> reducedValues) {
        try (BufferAllocator allocator = new RootAllocator(MEMORY_LIMIT)) {
            for (RexNode expression : constExps) {
                reducedValues.add(fold(rexBuilder, expression, allocator));
            }
        }
    }

    private static RexNode fold(RexBuilder rexBuilder, RexNode expression, BufferAllocator allocator) {
        if (SqlTypeUtil.isInterval(expression.getType())) {
            List<RexNode> folded = new ArrayList<>();
            RexUtil.EXECUTOR.reduce(rexBuilder, List.of(expression), folded);
            return folded.get(0);
        }
        RexNode literal = evaluate(rexBuilder, expression, allocator);
        if (literal != null) {
            return literal;
        }
        if (!(expression instanceof RexCall call)) {
            return expression;
        }
        List<RexNode> operands = new ArrayList<>();
        boolean changed = false;
        for (RexNode operand : call.getOperands()) {
            RexNode folded = RexUtil.isConstant(operand) && !(operand instanceof org.apache.calcite.rex.RexLiteral)
                    ? fold(rexBuilder, operand, allocator) : operand;
            changed |= folded != operand;
            operands.add(folded);
        }
        return changed ? call.clone(call.getType(), operands) : expression;
    }

    /** The value of {@code expression} as a literal of its type, or null when the engine cannot compute or represent it. */
    private static RexNode evaluate(RexBuilder rexBuilder, RexNode expression, BufferAllocator allocator) {
        Object value;
        try (VectorSchemaRoot batch = VectorSchemaRoot.create(NO_COLUMNS, allocator)) {
            batch.setRowCount(1);
            // a constant division by zero fails to fold whatever division_by_zero says; run time applies the setting
            PhysicalExpr expr = new RexTranslator(NO_COLUMNS, rexBuilder, DivisionByZero.ERROR).translate(expression);
            try (FieldVector result = expr.evaluate(batch, allocator)) {
                value = VectorValues.get(result, 0);
            }
        } catch (RuntimeException e) {
            // the same error (or the same missing support) will be raised when the query runs
            return null;
        }
        return Literals.toRex(rexBuilder, value, expression.getType());
    }
}
