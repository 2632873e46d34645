package dev.quiver.engine.expr.function;

import static dev.quiver.engine.expr.function.ArgType.INTEGER;
import static dev.quiver.engine.expr.function.ArgType.NUMERIC;
import static dev.quiver.engine.expr.function.Parameter.of;

import dev.quiver.engine.expr.kernel.NumericFunctions;
import dev.quiver.engine.types.QuiverTypes;
import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;

/** The numeric functions of the {@link FunctionRegistry}. */
final class MathFunctions {
    private MathFunctions() {}

    static List<ScalarFunction> all() {
        return List.of(
                ScalarFunction.builder("abs", FunctionCategory.MATH)
                        .signature(of("x", NUMERIC)).returns(ReturnTypeRule.argument(0, QuiverTypes.INT32))
                        .kernel(a -> NumericFunctions.abs(a.operand(0), a.resultType(), a.display(), a.rows(), a.allocator()))
                        .description("the absolute value")
                        .build(),
                ScalarFunction.builder("round", FunctionCategory.MATH)
                        .signature(of("x", NUMERIC))
                        .signature(of("x", NUMERIC), Parameter.constant("digits", INTEGER))
                        .returns(ReturnTypeRule.of("type of x; a decimal keeps min(scale, digits) digits", MathFunctions::roundType))
                        .kernel(a -> NumericFunctions.round(a.operand(0), a.size() > 1 ? NumericFunctions.constantInt(a.operand(1), a.display()) : 0,
                                a.resultType(), a.display(), a.rows(), a.allocator()))
                        .description("x rounded half away from zero to digits decimal places (default 0)")
                        .build());
    }

    /** As DuckDB: DECIMAL(p, s) rounded to d digits is DECIMAL(p, min(s, max(d, 0))): the carry fits, since digits move left of the point. */
    private static ArrowType roundType(ArgumentTypes args) {
        ArrowType x = args.type(0);
        if (x instanceof ArrowType.Null) {
            return QuiverTypes.FLOAT64;
        }
        if (!(x instanceof ArrowType.Decimal decimal)) {
            return x;
        }
        int digits = 0;
        if (args.size() > 1) {
            if (!args.isConstant(1) || args.constant(1) == null) {
                return x;
            }
            digits = ((Number) args.constant(1)).intValue();
        }
        int scale = Math.min(decimal.getScale(), Math.max(digits, 0));
        return QuiverTypes.decimal(decimal.getPrecision(), scale);
    }
}
