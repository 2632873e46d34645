package dev.quiver.engine.expr.function;

import static dev.quiver.engine.expr.function.ArgType.ANY;
import static dev.quiver.engine.expr.function.ArgType.INTEGER;
import static dev.quiver.engine.expr.function.ArgType.STRING;
import static dev.quiver.engine.expr.function.Parameter.of;

import dev.quiver.engine.expr.kernel.Operand;
import dev.quiver.engine.expr.kernel.StringKernels;
import dev.quiver.engine.types.QuiverTypes;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** The string functions of the {@link FunctionRegistry}. */
final class StringFunctions {
    private StringFunctions() {}

    static List<ScalarFunction> all() {
        return List.of(
                ScalarFunction.builder("substring", FunctionCategory.STRING).aliases("substr")
                        .signature(of("string", STRING), of("start", INTEGER))
                        .signature(of("string", STRING), of("start", INTEGER), of("length", INTEGER))
                        .alsoWritten("substring({0} from {1})", "substring({0} from {1} for {2})")
                        .returns(QuiverTypes.UTF8)
                        .kernel(a -> StringKernels.substring(a.operand(0), a.operand(1), a.size() > 2 ? a.operand(2) : null, a.rows(), a.allocator()))
                        .description("characters from position start (1-based), at most length of them")
                        .build(),
                ScalarFunction.builder("upper", FunctionCategory.STRING).aliases("ucase")
                        .signature(of("string", STRING)).returns(QuiverTypes.UTF8)
                        .kernel(a -> StringKernels.changeCase(a.operand(0), true, a.rows(), a.allocator()))
                        .description("the string in upper case")
                        .build(),
                ScalarFunction.builder("lower", FunctionCategory.STRING).aliases("lcase")
                        .signature(of("string", STRING)).returns(QuiverTypes.UTF8)
                        .kernel(a -> StringKernels.changeCase(a.operand(0), false, a.rows(), a.allocator()))
                        .description("the string in lower case")
                        .build(),
                // not "trim": Calcite's parser owns TRIM(BOTH .. FROM ..), and the SQL layer maps it here
                ScalarFunction.builder("btrim", FunctionCategory.STRING)
                        .signature(of("string", STRING)).returns(QuiverTypes.UTF8)
                        .alsoWritten("trim({0})", "trim(both from {0})")
                        .kernel(a -> StringKernels.trim(a.operand(0), a.rows(), a.allocator()))
                        .description("the string without leading and trailing spaces")
                        .build(),
                ScalarFunction.builder("length", FunctionCategory.STRING).aliases("char_length", "character_length")
                        .signature(of("string", STRING)).returns(QuiverTypes.INT64)
                        .kernel(a -> StringKernels.charLength(a.operand(0), a.resultType(), a.rows(), a.allocator()))
                        .description("the number of characters")
                        .build(),
                ScalarFunction.builder("concat", FunctionCategory.STRING)
                        .variadic(of("value", ANY)).returns(QuiverTypes.UTF8)
                        .notStrict().nullability(Nullability.NEVER).coercion(ALL_TO_VARCHAR)
                        .kernel(a -> StringKernels.concat(operands(a), true, a.rows(), a.allocator()))
                        .description("the arguments as text, one after the other; NULLs are skipped")
                        .build(),
                ScalarFunction.builder("||", FunctionCategory.STRING)
                        .syntax("{0} || {1}")
                        .variadic(of("left", STRING), of("right", STRING)).returns(QuiverTypes.UTF8)
                        .kernel(a -> StringKernels.concat(operands(a), false, a.rows(), a.allocator()))
                        .description("the two strings one after the other; NULL if either is NULL")
                        .build());
    }

    /** Every argument cast to VARCHAR. */
    private static final ArgumentCoercion ALL_TO_VARCHAR = (args, result) -> new ArrayList<>(Collections.nCopies(args.size(), QuiverTypes.UTF8));

    private static List<Operand> operands(CallArguments args) {
        List<Operand> operands = new ArrayList<>(args.size());
        for (int i = 0; i < args.size(); i++) {
            operands.add(args.operand(i));
        }
        return operands;
    }
}
