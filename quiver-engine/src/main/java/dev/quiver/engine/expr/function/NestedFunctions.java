package dev.quiver.engine.expr.function;

import static dev.quiver.engine.expr.function.ArgType.ANY;
import static dev.quiver.engine.expr.function.ArgType.INTEGER;
import static dev.quiver.engine.expr.function.ArgType.LIST;
import static dev.quiver.engine.expr.function.ArgType.MAP;
import static dev.quiver.engine.expr.function.Parameter.of;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.expr.kernel.ListKernels;
import dev.quiver.engine.types.QuiverTypes;
import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * The functions of lists and maps of the {@link FunctionRegistry}, with DuckDB's names and
 * semantics (NULL in, NULL out; positions 1-based, negative from the end, out of range NULL).
 * {@code length}/{@code len} of a list is the string function's second signature
 * ({@link StringFunctions}); {@code l[i]} and {@code m[key]} are Calcite's ITEM operator, which the
 * SQL layer maps to {@code list_extract} and {@code map_extract_value}. Elements and values must
 * be of a flat type: the engine types an expression by its Arrow type alone, which for a list of
 * lists would not say what the inner list holds.
 */
final class NestedFunctions {
    /** The type of the elements (values of a map) of argument 0, which must be flat. */
    private static final ReturnTypeRule ELEMENT = ReturnTypeRule.of("type of the elements", args -> {
        ArrowType element = args.elementType(0).orElseThrow(() -> new QuiverException(ErrorCode.PLAN_ERROR,
                "The element type of " + QuiverTypes.sqlName(args.type(0)) + " is not known here"));
        if (element instanceof ArrowType.List || element instanceof ArrowType.Map || element instanceof ArrowType.Struct) {
            throw new QuiverException(ErrorCode.NOT_SUPPORTED, "Taking an element of a list or map whose elements are themselves lists, maps "
                    + "or structs is not supported; only elements of a flat type (numbers, strings, dates...) can be taken out");
        }
        return element;
    });

    private NestedFunctions() {}

    static List<ScalarFunction> all() {
        return List.of(
                ScalarFunction.builder("array_length", FunctionCategory.NESTED)
                        .signature(of("list", LIST)).returns(QuiverTypes.INT64)
                        .kernel(a -> ListKernels.length(a.operand(0), a.resultType(), a.rows(), a.allocator()))
                        .description("the number of elements of the list")
                        .build(),
                ScalarFunction.builder("cardinality", FunctionCategory.NESTED)
                        .signature(of("list", LIST)).signature(of("map", MAP)).returns(QuiverTypes.INT64)
                        .kernel(a -> ListKernels.length(a.operand(0), a.resultType(), a.rows(), a.allocator()))
                        .description("the number of elements of the list, or of entries of the map")
                        .build(),
                ScalarFunction.builder("list_extract", FunctionCategory.NESTED).aliases("list_element", "array_extract")
                        .signature(of("list", LIST), of("position", INTEGER)).returns(ELEMENT).nullability(Nullability.ALWAYS)
                        .alsoWritten("{0}[{1}]")
                        .kernel(a -> ListKernels.element(a.operand(0), a.operand(1), a.resultType(), a.display(), a.rows(), a.allocator()))
                        .description("the element at position (1-based; negative counts from the end; NULL out of range)")
                        .build(),
                ScalarFunction.builder("map_extract_value", FunctionCategory.NESTED)
                        .signature(of("map", MAP), of("key", ANY)).returns(ELEMENT).nullability(Nullability.ALWAYS)
                        .alsoWritten("{0}[{1}]")
                        .kernel(a -> ListKernels.mapValue(a.operand(0), a.operand(1), a.resultType(), a.display(), a.rows(), a.allocator()))
                        .description("the value of key in the map, NULL when it has no such key (keys of VARCHAR or integer type)")
                        .build());
    }
}
