package dev.quiver.engine.expr.function;

import static dev.quiver.engine.expr.function.ArgType.INTEGER;
import static dev.quiver.engine.expr.function.ArgType.NUMERIC;
import static dev.quiver.engine.expr.function.Parameter.of;

import dev.quiver.engine.expr.BinaryOperator;
import dev.quiver.engine.expr.kernel.ArithmeticKernels;
import dev.quiver.engine.expr.kernel.MathKernels;
import dev.quiver.engine.expr.kernel.NumericFunctions;
import dev.quiver.engine.expr.kernel.RoundingKernels;
import dev.quiver.engine.expr.kernel.Vectors;
import dev.quiver.engine.types.QuiverTypes;
import java.util.ArrayList;
import java.util.List;
import java.util.function.DoubleBinaryOperator;
import java.util.function.DoubleUnaryOperator;
import org.apache.arrow.vector.types.pojo.ArrowType;

/** The numeric functions of the {@link FunctionRegistry}. */
final class MathFunctions {
    private MathFunctions() {}

    static List<ScalarFunction> all() {
        List<ScalarFunction> all = new ArrayList<>(List.of(
                ScalarFunction.builder("abs", FunctionCategory.MATH)
                        .signature(of("x", NUMERIC)).returns(ReturnTypeRule.argument(0, QuiverTypes.INT32))
                        .kernel(a -> NumericFunctions.abs(a.operand(0), a.resultType(), a.display(), a.rows(), a.allocator()))
                        .description("the absolute value")
                        .build(),
                ScalarFunction.builder("sign", FunctionCategory.MATH)
                        .signature(of("x", NUMERIC)).returns(QuiverTypes.INT32)
                        .kernel(a -> MathKernels.sign(a.operand(0), a.resultType(), a.display(), a.rows(), a.allocator()))
                        .description("-1, 0 or 1 as x is negative, zero (or NaN) or positive")
                        .build(),
                rounding("round", RoundingKernels.Mode.HALF_AWAY_FROM_ZERO, "x rounded half away from zero to digits decimal places (default 0)"),
                rounding("trunc", RoundingKernels.Mode.TOWARD_ZERO, "x truncated toward zero to digits decimal places (default 0)"),
                wholeNumber("floor", RoundingKernels.Mode.FLOOR, "the largest whole number not above x"),
                wholeNumber("ceil", RoundingKernels.Mode.CEILING, "the smallest whole number not below x", "ceiling"),
                ScalarFunction.builder("mod", FunctionCategory.MATH)
                        .signature(of("x", NUMERIC), of("y", NUMERIC))
                        .returns(ReturnTypeRule.of("type of y; for decimals the smaller integer part and the larger scale", MathFunctions::modType))
                        .alsoWritten("{0} % {1}")
                        .coercion(MathFunctions::modOperands)
                        .kernel(a -> ArithmeticKernels.evaluate(BinaryOperator.MODULO, a.operand(0), a.operand(1), a.resultType(), a.display(),
                                a.rows(), a.allocator()))
                        .description("the remainder of x / y, with the sign of x")
                        .build(),
                ScalarFunction.builder("divide", FunctionCategory.MATH)
                        .signature(of("x", INTEGER), of("y", INTEGER))
                        .returns(ReturnTypeRule.of("the wider of the types of x and y", MathFunctions::divideType))
                        .coercion(ArgumentCoercion.ALL_TO_RESULT)
                        .kernel(a -> ArithmeticKernels.evaluate(BinaryOperator.DIVIDE, a.operand(0), a.operand(1), a.resultType(), a.display(),
                                a.rows(), a.allocator()))
                        .description("integer division: x / y truncated toward zero (DuckDB's x // y; x / y of two integers is a DOUBLE)")
                        .build(),
                binary("power", (x, y) -> Math.pow(x, y), "x raised to the power y", "pow"),
                binary("atan2", (y, x) -> Math.atan2(y, x), "the angle of the point (x, y) from the x axis, in radians"),
                ScalarFunction.builder("log", FunctionCategory.MATH)
                        .signature(of("x", NUMERIC))
                        .signature(of("base", NUMERIC), of("x", NUMERIC))
                        .returns(QuiverTypes.FLOAT64)
                        .kernel(a -> a.size() == 1 ? MathKernels.map(Math::log10, a.operand(0), a.rows(), a.allocator())
                                : MathKernels.map(MathKernels::log, a.operand(0), a.operand(1), a.rows(), a.allocator()))
                        .description("the logarithm of x to base (default 10)")
                        .build(),
                ScalarFunction.builder("pi", FunctionCategory.MATH)
                        .signature().returns(QuiverTypes.FLOAT64)
                        .kernel(a -> Vectors.constant(QuiverTypes.FLOAT64, Math.PI, a.rows(), a.allocator()))
                        .description("π")
                        .build(),
                ScalarFunction.builder("random", FunctionCategory.MATH)
                        .signature().returns(QuiverTypes.FLOAT64).volatility(Volatility.VOLATILE)
                        .kernel(a -> MathKernels.random(a.rows(), a.allocator()))
                        .description("a random number in [0, 1), a new one per row")
                        .build()));
        all.add(unary("sqrt", Math::sqrt, "the square root (NaN for a negative x)"));
        all.add(unary("cbrt", Math::cbrt, "the cube root"));
        all.add(unary("exp", Math::exp, "e raised to the power x"));
        all.add(unary("ln", Math::log, "the natural logarithm (-Infinity for 0, NaN for a negative x)"));
        all.add(unary("log10", Math::log10, "the logarithm to base 10"));
        all.add(unary("log2", MathKernels::log2, "the logarithm to base 2"));
        all.add(unary("sin", Math::sin, "the sine of x radians"));
        all.add(unary("cos", Math::cos, "the cosine of x radians"));
        all.add(unary("tan", Math::tan, "the tangent of x radians"));
        all.add(unary("cot", MathKernels::cot, "the cotangent of x radians"));
        all.add(unary("asin", Math::asin, "the arc sine, in radians"));
        all.add(unary("acos", Math::acos, "the arc cosine, in radians"));
        all.add(unary("atan", Math::atan, "the arc tangent, in radians"));
        all.add(unary("degrees", Math::toDegrees, "x radians in degrees"));
        all.add(unary("radians", Math::toRadians, "x degrees in radians"));
        return all;
    }

    private static ScalarFunction unary(String name, DoubleUnaryOperator f, String description) {
        return ScalarFunction.builder(name, FunctionCategory.MATH)
                .signature(of("x", NUMERIC)).returns(QuiverTypes.FLOAT64)
                .kernel(a -> MathKernels.map(f, a.operand(0), a.rows(), a.allocator()))
                .description(description)
                .build();
    }

    private static ScalarFunction binary(String name, DoubleBinaryOperator f, String description, String... aliases) {
        boolean angle = name.equals("atan2");
        return ScalarFunction.builder(name, FunctionCategory.MATH).aliases(aliases)
                .signature(of(angle ? "y" : "x", NUMERIC), of(angle ? "x" : "y", NUMERIC)).returns(QuiverTypes.FLOAT64)
                .kernel(a -> MathKernels.map(f, a.operand(0), a.operand(1), a.rows(), a.allocator()))
                .description(description)
                .build();
    }

    private static ScalarFunction rounding(String name, RoundingKernels.Mode mode, String description) {
        return ScalarFunction.builder(name, FunctionCategory.MATH)
                .signature(of("x", NUMERIC))
                .signature(of("x", NUMERIC), Parameter.constant("digits", INTEGER))
                .returns(ReturnTypeRule.of("type of x; a decimal keeps min(scale, digits) digits", MathFunctions::roundType))
                .kernel(a -> RoundingKernels.round(mode, a.operand(0), a.size() > 1 ? NumericFunctions.constantInt(a.operand(1), a.display()) : 0,
                        a.resultType(), a.display(), a.rows(), a.allocator()))
                .description(description)
                .build();
    }

    private static ScalarFunction wholeNumber(String name, RoundingKernels.Mode mode, String description, String... aliases) {
        return ScalarFunction.builder(name, FunctionCategory.MATH).aliases(aliases)
                .signature(of("x", NUMERIC))
                .returns(ReturnTypeRule.of("DECIMAL(p, 0) for DECIMAL(p, s), else the type of x", MathFunctions::wholeNumberType))
                .kernel(a -> RoundingKernels.round(mode, a.operand(0), 0, a.resultType(), a.display(), a.rows(), a.allocator()))
                .description(description)
                .build();
    }

    /**
     * mod, as SQL's {@code %} is typed: the remainder is smaller than y, so y's type holds it;
     * decimals keep the larger scale and the smaller integer part; DOUBLE if either is DOUBLE.
     */
    private static ArrowType modType(ArgumentTypes args) {
        ArrowType x = args.type(0);
        ArrowType y = args.type(1);
        if (x instanceof ArrowType.FloatingPoint || y instanceof ArrowType.FloatingPoint) {
            return QuiverTypes.FLOAT64;
        }
        if (y instanceof ArrowType.Null) {
            return x instanceof ArrowType.Null ? QuiverTypes.INT32 : x;
        }
        int xScale = x instanceof ArrowType.Decimal d ? d.getScale() : 0;
        int yScale = y instanceof ArrowType.Decimal d ? d.getScale() : 0;
        if (xScale == 0 && yScale == 0) {
            return y;
        }
        int scale = Math.max(xScale, yScale);
        int integerDigits = Math.min(digits(x) - xScale, digits(y) - yScale);
        return QuiverTypes.decimal(Math.min(QuiverTypes.MAX_DECIMAL_PRECISION, integerDigits + scale), scale);
    }

    private static int digits(ArrowType type) {
        if (type instanceof ArrowType.Decimal d) {
            return d.getPrecision();
        }
        return type instanceof ArrowType.Int i && i.getBitWidth() > 32 ? 19 : 10;
    }

    /** divide: BIGINT if either is BIGINT, else INTEGER. */
    private static ArrowType divideType(ArgumentTypes args) {
        ArrowType common = QuiverTypes.commonType(args.type(0), args.type(1));
        return common instanceof ArrowType.Null ? QuiverTypes.INT32 : common;
    }

    /** mod computes in the common type of x and y (x may be wider than the result). */
    private static List<ArrowType> modOperands(List<ArrowType> args, ArrowType result) {
        ArrowType common = QuiverTypes.commonType(args.get(0), args.get(1));
        return new ArrayList<>(List.of(common, common));
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

    /**
     * floor and ceil: DECIMAL(p, 0) for a decimal (as DuckDB), the argument's type otherwise. (The
     * SQL parser's own FLOOR/CEIL keep an integer an integer; DuckDB and PostgreSQL give DOUBLE.)
     */
    private static ArrowType wholeNumberType(ArgumentTypes args) {
        ArrowType x = args.type(0);
        return x instanceof ArrowType.Decimal decimal ? QuiverTypes.decimal(decimal.getPrecision(), 0)
                : x instanceof ArrowType.Null ? QuiverTypes.FLOAT64 : x;
    }
}
