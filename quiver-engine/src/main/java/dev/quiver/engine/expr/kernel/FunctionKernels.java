package dev.quiver.engine.expr.kernel;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.expr.ScalarFunctionExpr;
import dev.quiver.engine.types.QuiverTypes;
import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;

/** Dispatches each {@link dev.quiver.engine.expr.ScalarFunction} to its kernel. */
public final class FunctionKernels {
    private FunctionKernels() {}

    public static FieldVector evaluate(ScalarFunctionExpr expr, VectorSchemaRoot batch, BufferAllocator allocator) {
        int rows = batch.getRowCount();
        List<PhysicalExpr> args = expr.args();
        ArrowType type = expr.type();
        String display = expr.display();
        if (expr.function() == dev.quiver.engine.expr.ScalarFunction.COALESCE) {
            return SelectionKernels.coalesce(args, type, batch, allocator);
        }
        List<Operand> operands = new ArrayList<>(args.size());
        try {
            for (PhysicalExpr arg : args) {
                operands.add(Operand.evaluate(arg, batch, allocator));
            }
            checkArity(expr, operands.size());
            Operand first = operands.get(0);
            return switch (expr.function()) {
                case SUBSTRING -> StringKernels.substring(first, operands.get(1), operands.size() > 2 ? operands.get(2) : null, rows, allocator);
                case UPPER -> StringKernels.changeCase(first, true, rows, allocator);
                case LOWER -> StringKernels.changeCase(first, false, rows, allocator);
                case TRIM -> StringKernels.trim(first, rows, allocator);
                case CHAR_LENGTH -> StringKernels.charLength(first, type, rows, allocator);
                case CONCAT -> concat(operands, display, rows, allocator);
                case EXTRACT_YEAR -> DateKernels.extract(DateKernels.Field.YEAR, first, type, rows, allocator);
                case EXTRACT_MONTH -> DateKernels.extract(DateKernels.Field.MONTH, first, type, rows, allocator);
                case EXTRACT_DAY -> DateKernels.extract(DateKernels.Field.DAY, first, type, rows, allocator);
                case DATE_ADD_DAYS -> DateKernels.add(false, first, operands.get(1), type, rows, allocator);
                case DATE_ADD_MONTHS -> DateKernels.add(true, first, operands.get(1), type, rows, allocator);
                case ABS -> NumericFunctions.abs(first, type, display, rows, allocator);
                case ROUND -> NumericFunctions.round(first, operands.size() > 1 ? NumericFunctions.constantInt(operands.get(1), display) : 0,
                        type, display, rows, allocator);
                case COALESCE -> throw new IllegalStateException("handled above");
            };
        } finally {
            operands.forEach(Operand::close);
        }
    }

    private static FieldVector concat(List<Operand> operands, String display, int rows, BufferAllocator allocator) {
        List<Operand> strings = new ArrayList<>(operands.size());
        try {
            for (Operand operand : operands) {
                if (operand.type() instanceof ArrowType.Utf8) {
                    strings.add(operand.isConstant() ? Operand.constant(operand.type(), operand.constant(), rows)
                            : Operand.of(operand.type(), Vectors.share(operand.vector(), rows, allocator), rows));
                } else {
                    strings.add(Operand.of(QuiverTypes.UTF8, CastKernels.cast(operand, QuiverTypes.UTF8, display, rows, allocator), rows));
                }
            }
            return StringKernels.concat(strings, rows, allocator);
        } finally {
            strings.forEach(Operand::close);
        }
    }

    private static void checkArity(ScalarFunctionExpr expr, int count) {
        int min = switch (expr.function()) {
            case SUBSTRING, DATE_ADD_DAYS, DATE_ADD_MONTHS -> 2;
            default -> 1;
        };
        int max = switch (expr.function()) {
            case SUBSTRING -> 3;
            case DATE_ADD_DAYS, DATE_ADD_MONTHS, ROUND -> 2;
            case CONCAT, COALESCE -> Integer.MAX_VALUE;
            default -> 1;
        };
        if (count < min || count > max) {
            throw new QuiverException(ErrorCode.PLAN_ERROR, expr.function() + " takes " + min + (max == min ? "" : " to " + max)
                    + " arguments, got " + count + ": " + expr.display());
        }
    }
}
