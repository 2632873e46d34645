package dev.quiver.engine.expr.function;

import static dev.quiver.engine.expr.function.ArgType.ANY;
import static dev.quiver.engine.expr.function.ArgType.INTEGER;
import static dev.quiver.engine.expr.function.ArgType.STRING;
import static dev.quiver.engine.expr.function.Parameter.of;

import dev.quiver.engine.expr.kernel.CodePointKernels;
import dev.quiver.engine.expr.kernel.ListKernels;
import dev.quiver.engine.expr.kernel.Operand;
import dev.quiver.engine.expr.kernel.StringKernels;
import dev.quiver.engine.expr.kernel.TextCaseKernels;
import dev.quiver.engine.expr.kernel.TextSearchKernels;
import dev.quiver.engine.expr.kernel.TextSliceKernels;
import dev.quiver.engine.expr.kernel.TrimKernels;
import dev.quiver.engine.types.QuiverTypes;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;

/** The string functions of the {@link FunctionRegistry} (LIKE and regular expressions: {@link PatternFunctions}). */
final class StringFunctions {
    /** Every argument cast to VARCHAR. */
    private static final ArgumentCoercion ALL_TO_VARCHAR = (args, result) -> new ArrayList<>(Collections.nCopies(args.size(), QuiverTypes.UTF8));
    /** The arguments after the separator cast to VARCHAR. */
    private static final ArgumentCoercion VALUES_TO_VARCHAR = (args, result) -> {
        List<org.apache.arrow.vector.types.pojo.ArrowType> targets = new ArrayList<>(Collections.nCopies(args.size(), QuiverTypes.UTF8));
        targets.set(0, null);
        return targets;
    };

    private StringFunctions() {}

    static List<ScalarFunction> all() {
        List<ScalarFunction> all = new ArrayList<>(List.of(
                ScalarFunction.builder("length", FunctionCategory.STRING).aliases("char_length", "character_length", "len")
                        .signature(of("string", STRING)).signature(of("list", ArgType.LIST)).returns(QuiverTypes.INT64)
                        .kernel(a -> a.operand(0).type() instanceof ArrowType.List
                                ? ListKernels.length(a.operand(0), a.resultType(), a.rows(), a.allocator())
                                : StringKernels.charLength(a.operand(0), a.resultType(), a.rows(), a.allocator()))
                        .description("the number of characters of a string, or of elements of a list")
                        .build(),
                caseMapping("upper", "ucase", TextCaseKernels.Mapping.UPPER, "the string in upper case"),
                caseMapping("lower", "lcase", TextCaseKernels.Mapping.LOWER, "the string in lower case"),
                ScalarFunction.builder("initcap", FunctionCategory.STRING)
                        .signature(of("string", STRING)).returns(QuiverTypes.UTF8)
                        .kernel(a -> TextCaseKernels.map(TextCaseKernels.Mapping.INITCAP, a.operand(0), a.rows(), a.allocator()))
                        .description("each word's first letter in upper case, the others in lower case (words are runs of letters and digits)")
                        .build(),
                // "btrim", not "trim": Calcite's parser owns TRIM(BOTH .. FROM ..); the SQL layer maps it here
                trim("btrim", TrimKernels.Side.BOTH, "trim({0})", "trim(both {1} from {0})"),
                trim("ltrim", TrimKernels.Side.LEADING, "trim(leading from {0})", "trim(leading {1} from {0})"),
                trim("rtrim", TrimKernels.Side.TRAILING, "trim(trailing from {0})", "trim(trailing {1} from {0})"),
                ScalarFunction.builder("substring", FunctionCategory.STRING).aliases("substr")
                        .signature(of("string", STRING), of("start", INTEGER))
                        .signature(of("string", STRING), of("start", INTEGER), of("length", INTEGER))
                        .alsoWritten("substring({0} from {1})", "substring({0} from {1} for {2})")
                        .returns(QuiverTypes.UTF8)
                        .kernel(a -> TextSliceKernels.substring(a.operand(0), a.operand(1), a.size() > 2 ? a.operand(2) : null, a.rows(), a.allocator()))
                        .description("length characters from position start (1-based; negative counts from the end)")
                        .build(),
                ScalarFunction.builder("left", FunctionCategory.STRING)
                        .signature(of("string", STRING), of("count", INTEGER)).returns(QuiverTypes.UTF8)
                        .kernel(a -> TextSliceKernels.leftOrRight(true, a.operand(0), a.operand(1), a.rows(), a.allocator()))
                        .description("the first count characters; a negative count drops the last -count")
                        .build(),
                ScalarFunction.builder("right", FunctionCategory.STRING)
                        .signature(of("string", STRING), of("count", INTEGER)).returns(QuiverTypes.UTF8)
                        .kernel(a -> TextSliceKernels.leftOrRight(false, a.operand(0), a.operand(1), a.rows(), a.allocator()))
                        .description("the last count characters; a negative count drops the first -count")
                        .build(),
                pad("lpad", true), pad("rpad", false),
                ScalarFunction.builder("replace", FunctionCategory.STRING)
                        .signature(of("string", STRING), of("from", STRING), of("to", STRING)).returns(QuiverTypes.UTF8)
                        .kernel(a -> TextSearchKernels.replace(a.operand(0), a.operand(1), a.operand(2), a.rows(), a.allocator()))
                        .description("every occurrence of from replaced by to")
                        .build(),
                ScalarFunction.builder("reverse", FunctionCategory.STRING)
                        .signature(of("string", STRING)).returns(QuiverTypes.UTF8)
                        .kernel(a -> TextSliceKernels.reverse(a.operand(0), a.rows(), a.allocator()))
                        .description("the characters in reverse order")
                        .build(),
                ScalarFunction.builder("repeat", FunctionCategory.STRING)
                        .signature(of("string", STRING), of("count", INTEGER)).returns(QuiverTypes.UTF8)
                        .kernel(a -> TextSliceKernels.repeat(a.operand(0), a.operand(1), a.display(), a.rows(), a.allocator()))
                        .description("the string count times ('' when count <= 0)")
                        .build(),
                ScalarFunction.builder("strpos", FunctionCategory.STRING).aliases("instr")
                        .signature(of("string", STRING), of("substring", STRING)).returns(QuiverTypes.INT64)
                        .alsoWritten("position({1} in {0})")
                        .kernel(a -> TextSearchKernels.strpos(a.operand(0), a.operand(1), a.resultType(), a.display(), a.rows(), a.allocator()))
                        .description("the position (1-based, in characters) of the first occurrence of substring, 0 if none")
                        .build(),
                ScalarFunction.builder("split_part", FunctionCategory.STRING)
                        .signature(of("string", STRING), of("delimiter", STRING), of("index", INTEGER)).returns(QuiverTypes.UTF8)
                        .kernel(a -> TextSliceKernels.splitPart(a.operand(0), a.operand(1), a.operand(2), a.rows(), a.allocator()))
                        .description("field index (1-based; negative counts from the end) of the string split at delimiter, '' if none")
                        .build(),
                test("starts_with", "prefix", TextSearchKernels.Test.STARTS_WITH, "whether the string begins with prefix"),
                test("ends_with", "suffix", TextSearchKernels.Test.ENDS_WITH, "whether the string ends with suffix"),
                test("contains", null, TextSearchKernels.Test.CONTAINS, "whether the string contains substring"),
                ScalarFunction.builder("concat", FunctionCategory.STRING)
                        .variadic(of("value", ANY)).returns(QuiverTypes.UTF8)
                        .notStrict().nullability(Nullability.NEVER).coercion(ALL_TO_VARCHAR)
                        .kernel(a -> StringKernels.concat(operands(a, 0), true, a.rows(), a.allocator()))
                        .description("the arguments as text, one after the other; NULLs are skipped")
                        .build(),
                ScalarFunction.builder("concat_ws", FunctionCategory.STRING)
                        .variadic(of("separator", STRING), of("value", ANY)).returns(QuiverTypes.UTF8)
                        .notStrict().nullability(Nullability.ANY_ARGUMENT).coercion(VALUES_TO_VARCHAR)
                        .kernel(a -> StringKernels.concatWithSeparator(a.operand(0), operands(a, 1), a.rows(), a.allocator()))
                        .description("the non-NULL values as text joined by separator; NULL when separator is NULL")
                        .build(),
                ScalarFunction.builder("||", FunctionCategory.STRING)
                        .syntax("{0} || {1}")
                        .variadic(of("left", STRING), of("right", STRING)).returns(QuiverTypes.UTF8)
                        .kernel(a -> StringKernels.concat(operands(a, 0), false, a.rows(), a.allocator()))
                        .description("the two strings one after the other; NULL if either is NULL")
                        .build(),
                ScalarFunction.builder("ascii", FunctionCategory.STRING)
                        .signature(of("string", STRING)).returns(QuiverTypes.INT32)
                        .kernel(a -> CodePointKernels.ascii(a.operand(0), a.resultType(), a.display(), a.rows(), a.allocator()))
                        .description("the Unicode code point of the first character (0 for '')")
                        .build(),
                ScalarFunction.builder("chr", FunctionCategory.STRING)
                        .signature(of("code", INTEGER)).returns(QuiverTypes.UTF8)
                        .kernel(a -> CodePointKernels.chr(a.operand(0), a.display(), a.rows(), a.allocator()))
                        .description("the character with that Unicode code point")
                        .build()));
        return all;
    }

    private static ScalarFunction caseMapping(String name, String alias, TextCaseKernels.Mapping mapping, String description) {
        return ScalarFunction.builder(name, FunctionCategory.STRING).aliases(alias)
                .signature(of("string", STRING)).returns(QuiverTypes.UTF8)
                .kernel(a -> TextCaseKernels.map(mapping, a.operand(0), a.rows(), a.allocator()))
                .description(description)
                .build();
    }

    private static ScalarFunction trim(String name, TrimKernels.Side side, String... forms) {
        String ends = switch (side) {
            case BOTH -> "both ends";
            case LEADING -> "the start";
            case TRAILING -> "the end";
        };
        return ScalarFunction.builder(name, FunctionCategory.STRING)
                .signature(of("string", STRING))
                .signature(of("string", STRING), of("characters", STRING))
                .alsoWritten(forms)
                .returns(QuiverTypes.UTF8)
                .kernel(a -> TrimKernels.trim(side, a.operand(0), a.size() > 1 ? a.operand(1) : null, a.rows(), a.allocator()))
                .description("the string without the characters (default: spaces) at " + ends)
                .build();
    }

    private static ScalarFunction pad(String name, boolean left) {
        return ScalarFunction.builder(name, FunctionCategory.STRING)
                .signature(of("string", STRING), of("length", INTEGER))
                .signature(of("string", STRING), of("length", INTEGER), of("fill", STRING))
                .returns(QuiverTypes.UTF8)
                .kernel(a -> TextSliceKernels.pad(left, a.operand(0), a.operand(1), a.size() > 2 ? a.operand(2) : Operand.constant(QuiverTypes.UTF8, " ", a.rows()),
                        a.display(), a.rows(), a.allocator()))
                .description("the string " + (left ? "left" : "right") + "-padded with fill (default: a space) or cut to length characters")
                .build();
    }

    private static ScalarFunction test(String name, String alias, TextSearchKernels.Test test, String description) {
        ScalarFunction.Builder builder = ScalarFunction.builder(name, FunctionCategory.STRING);
        if (alias != null) {
            builder.aliases(alias);
        }
        return builder.signature(of("string", STRING), of(test == TextSearchKernels.Test.CONTAINS ? "substring" : alias, STRING))
                .returns(QuiverTypes.BOOLEAN)
                .kernel(a -> TextSearchKernels.test(test, a.operand(0), a.operand(1), a.rows(), a.allocator()))
                .description(description)
                .build();
    }

    /** The arguments from {@code from} on, evaluated. */
    static List<Operand> operands(CallArguments args, int from) {
        List<Operand> operands = new ArrayList<>(args.size());
        for (int i = from; i < args.size(); i++) {
            operands.add(args.operand(i));
        }
        return operands;
    }
}
