package dev.quiver.engine.expr.function;

import static dev.quiver.engine.expr.function.ArgType.ANY;
import static dev.quiver.engine.expr.function.ArgType.BOOLEAN;
import static dev.quiver.engine.expr.function.Parameter.of;

import dev.quiver.engine.expr.BinaryExpr;
import dev.quiver.engine.expr.BinaryOperator;
import dev.quiver.engine.expr.CaseExpr;
import dev.quiver.engine.expr.CastExpr;
import dev.quiver.engine.expr.LiteralExpr;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.expr.kernel.SelectionKernels;
import dev.quiver.engine.types.QuiverTypes;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.vector.types.pojo.ArrowType;

/** The conditional functions of the {@link FunctionRegistry}: each picks, row by row, which argument gives the value. */
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
        return List.of(COALESCE,
                ScalarFunction.builder("ifnull", FunctionCategory.CONDITIONAL).aliases("nvl")
                        .signature(of("value", ANY), of("otherwise", ANY)).returns(ReturnTypeRule.commonFrom(0))
                        .notStrict().nullability(Nullability.ALL_ARGUMENTS).coercion(ArgumentCoercion.ALL_TO_RESULT)
                        .kernel(a -> SelectionKernels.coalesce(a.exprs(), a.resultType(), a.batch(), a.allocator()))
                        .description("value, or otherwise when value is NULL")
                        .build(),
                ScalarFunction.builder("nullif", FunctionCategory.CONDITIONAL)
                        .signature(of("value", ANY), of("other", ANY))
                        .returns(ReturnTypeRule.of("type of value", args -> {
                            QuiverTypes.commonType(args.type(0), args.type(1));
                            return args.type(0);
                        }))
                        .notStrict().nullability(Nullability.ALWAYS)
                        .binder(ConditionalFunctions::bindNullIf)
                        .description("NULL when value equals other, else value")
                        .build(),
                ScalarFunction.builder("if", FunctionCategory.CONDITIONAL).aliases("iff")
                        .signature(of("condition", BOOLEAN), of("then_value", ANY), of("else_value", ANY)).returns(ReturnTypeRule.commonFrom(1))
                        .notStrict().coercion(ArgumentCoercion.fromArgument(1))
                        .binder(site -> {
                            CaseExpr choice = new CaseExpr(List.of(new CaseExpr.WhenThen(site.args().get(0), site.args().get(1))),
                                    Optional.of(site.args().get(2)), site.resultType());
                            return a -> SelectionKernels.caseWhen(choice, a.batch(), a.allocator());
                        })
                        .description("then_value where condition is true, else else_value (a NULL condition counts as false); only the chosen value is computed")
                        .build(),
                extreme("greatest", true), extreme("least", false));
    }

    /** nullif(a, b) is {@code CASE WHEN a = b THEN NULL ELSE a END}, compared in the common type. */
    private static Kernel bindNullIf(CallSite site) {
        PhysicalExpr value = site.args().get(0);
        PhysicalExpr other = site.args().get(1);
        ArrowType common = QuiverTypes.commonType(value.type(), other.type());
        BinaryExpr equal = new BinaryExpr(BinaryOperator.EQ, CastExpr.to(value, common), CastExpr.to(other, common), QuiverTypes.BOOLEAN);
        CaseExpr choice = new CaseExpr(List.of(new CaseExpr.WhenThen(equal, new LiteralExpr(null, site.resultType()))),
                Optional.of(CastExpr.to(value, site.resultType())), site.resultType());
        return a -> SelectionKernels.caseWhen(choice, a.batch(), a.allocator());
    }

    private static ScalarFunction extreme(String name, boolean greatest) {
        return ScalarFunction.builder(name, FunctionCategory.CONDITIONAL)
                .variadic(of("value", ANY)).returns(ReturnTypeRule.commonFrom(0))
                .notStrict().nullability(Nullability.ALL_ARGUMENTS).coercion(ArgumentCoercion.ALL_TO_RESULT)
                .kernel(a -> SelectionKernels.extreme(greatest, a.exprs(), a.resultType(), a.batch(), a.allocator()))
                .description("the " + (greatest ? "largest" : "smallest") + " argument that is not NULL")
                .build();
    }
}
