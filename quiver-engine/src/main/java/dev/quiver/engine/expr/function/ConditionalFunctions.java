package dev.quiver.engine.expr.function;

import static dev.quiver.engine.expr.function.ArgType.ANY;
import static dev.quiver.engine.expr.function.Parameter.of;

import dev.quiver.engine.expr.kernel.SelectionKernels;
import java.util.List;

/** The conditional functions of the {@link FunctionRegistry}. */
public final class ConditionalFunctions {
    /** {@code coalesce(a, b, ...)}, which the planner also uses to stand in for NULL keys and empty sums. */
    public static final ScalarFunction COALESCE = ScalarFunction.builder("coalesce", FunctionCategory.CONDITIONAL)
            .variadic(of("value", ANY)).returns(ReturnTypeRule.commonFrom(0))
            .notStrict().nullability(Nullability.ALL_ARGUMENTS).coercion(ArgumentCoercion.ALL_TO_RESULT)
            .kernel(a -> SelectionKernels.coalesce(a.exprs(), a.resultType(), a.batch(), a.allocator()))
            .description("the first argument that is not NULL")
            .build();

    private ConditionalFunctions() {}

    static List<ScalarFunction> all() {
        return List.of(COALESCE);
    }
}
