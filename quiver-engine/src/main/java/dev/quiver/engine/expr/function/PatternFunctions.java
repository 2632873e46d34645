package dev.quiver.engine.expr.function;

import static dev.quiver.engine.expr.function.ArgType.INTEGER;
import static dev.quiver.engine.expr.function.ArgType.STRING;
import static dev.quiver.engine.expr.function.Parameter.of;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.expr.kernel.LikeMatcher;
import dev.quiver.engine.expr.kernel.Operand;
import dev.quiver.engine.expr.kernel.RegexKernels;
import dev.quiver.engine.expr.kernel.StringKernels;
import dev.quiver.engine.expr.kernel.TextCaseKernels;
import dev.quiver.engine.types.QuiverTypes;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.apache.arrow.vector.FieldVector;

/**
 * Pattern matching: LIKE, ILIKE, SIMILAR TO and the regexp_ functions. Constant patterns (and
 * options) are compiled once, when the call is bound; the validator compiles constant regular
 * expressions too, so a bad one fails with its position in the SQL text.
 */
final class PatternFunctions {
    private static final Parameter REGEX = Parameter.checked("pattern", STRING, value -> RegexKernels.compile((String) value, 0, ""));
    private static final Parameter OPTIONS = Parameter.checkedConstant("options", STRING,
            value -> RegexKernels.Options.parse((String) value, "options"));
    private static final Parameter ESCAPE = Parameter.checkedConstant("escape", STRING, value -> escape((String) value));

    private PatternFunctions() {}

    static List<ScalarFunction> all() {
        return List.of(
                like("like", false, "{0} LIKE {1}", "{0} LIKE {1} ESCAPE {2}",
                        "whether the string matches the pattern: % is any string, _ any character"),
                like("ilike", true, "{0} ILIKE {1}", "{0} ILIKE {1} ESCAPE {2}", "LIKE ignoring case (compared in lower case)"),
                ScalarFunction.builder("similar_to", FunctionCategory.STRING)
                        .syntax("{0} SIMILAR TO {1}", "{0} SIMILAR TO {1} ESCAPE {2}")
                        .signature(of("string", STRING), of("pattern", STRING))
                        .signature(of("string", STRING), of("pattern", STRING), ESCAPE)
                        .returns(QuiverTypes.BOOLEAN)
                        .binder(PatternFunctions::bindSimilarTo)
                        .description("whether the whole string matches a SQL regular expression (% and _ as in LIKE, | * + ? {m,n} ( ) [ ] as in regular expressions)")
                        .build(),
                ScalarFunction.builder("regexp_matches", FunctionCategory.STRING)
                        .signature(of("string", STRING), REGEX)
                        .signature(of("string", STRING), REGEX, OPTIONS)
                        .returns(QuiverTypes.BOOLEAN)
                        .binder(site -> {
                            Function<CallArguments, RegexKernels.Patterns> patterns = patterns(site, options(site, 2).flags());
                            return a -> RegexKernels.matches(a.operand(0), a.operand(1), patterns.apply(a), false, a.rows(), a.allocator());
                        })
                        .description("whether the regular expression matches somewhere in the string")
                        .build(),
                ScalarFunction.builder("regexp_replace", FunctionCategory.STRING)
                        .signature(of("string", STRING), REGEX, of("replacement", STRING))
                        .signature(of("string", STRING), REGEX, of("replacement", STRING), OPTIONS)
                        .returns(QuiverTypes.UTF8)
                        .binder(site -> {
                            RegexKernels.Options options = options(site, 3);
                            Function<CallArguments, RegexKernels.Patterns> patterns = patterns(site, options.flags());
                            return a -> RegexKernels.replace(a.operand(0), patterns.apply(a), a.operand(2), options.global(), a.rows(), a.allocator());
                        })
                        .description("the first match (every match with option 'g') replaced; \\1..\\9 in the replacement are groups")
                        .build(),
                ScalarFunction.builder("regexp_extract", FunctionCategory.STRING)
                        .signature(of("string", STRING), REGEX)
                        .signature(of("string", STRING), REGEX, Parameter.checkedConstant("group", INTEGER, group -> checkGroup(((Number) group).longValue(), "regexp_extract(..., " + group + ")")))
                        .returns(QuiverTypes.UTF8)
                        .binder(site -> {
                            int group = group(site);
                            Function<CallArguments, RegexKernels.Patterns> patterns = patterns(site, 0);
                            return a -> RegexKernels.extract(a.operand(0), patterns.apply(a), group, a.rows(), a.allocator());
                        })
                        .description("the first match (or its group), '' when nothing matches")
                        .build());
    }

    private static ScalarFunction like(String name, boolean ignoreCase, String form, String escapedForm, String description) {
        return ScalarFunction.builder(name, FunctionCategory.STRING)
                .syntax(form, escapedForm)
                .signature(of("string", STRING), of("pattern", STRING))
                .signature(of("string", STRING), of("pattern", STRING), ESCAPE)
                .returns(QuiverTypes.BOOLEAN)
                .binder(site -> bindLike(site, ignoreCase))
                .description(description)
                .build();
    }

    private static Kernel bindLike(CallSite site, boolean ignoreCase) {
        Optional<Character> escape = site.args().size() > 2 ? Optional.of(escape(constantText(site, 2, "escape"))) : Optional.empty();
        if (site.isConstant(1)) {
            LikeMatcher matcher = LikeMatcher.compile(ignoreCase ? lower((String) site.constant(1), escape) : (String) site.constant(1), escape);
            return a -> {
                if (!ignoreCase) {
                    return StringKernels.like(a.operand(0), matcher, false, a.rows(), a.allocator());
                }
                try (Operand lowered = lowered(a.operand(0), a)) {
                    return StringKernels.like(lowered, matcher, false, a.rows(), a.allocator());
                }
            };
        }
        return a -> {
            if (!ignoreCase) {
                return StringKernels.likeEach(a.operand(0), a.operand(1), escape, a.rows(), a.allocator());
            }
            try (Operand text = lowered(a.operand(0), a); Operand patterns = lowered(a.operand(1), a)) {
                return StringKernels.likeEach(text, patterns, escape, a.rows(), a.allocator());
            }
        };
    }

    private static Kernel bindSimilarTo(CallSite site) {
        Character escape = site.args().size() > 2 ? escape(constantText(site, 2, "escape")) : null;
        RegexKernels.Patterns constant = site.isConstant(1)
                ? RegexKernels.Patterns.constant(RegexKernels.compile(RegexKernels.similarToRegex((String) site.constant(1), escape, site.display()),
                        Pattern.DOTALL, site.display()))
                : null;
        return a -> {
            RegexKernels.Patterns patterns = constant != null ? constant
                    : RegexKernels.Patterns.similarToPerRow(a.operand(1), escape, Pattern.DOTALL, a.display());
            return RegexKernels.matches(a.operand(0), a.operand(1), patterns, true, a.rows(), a.allocator());
        };
    }

    /** The patterns (argument 1) of a call: compiled once when constant, else per row as they change. */
    private static Function<CallArguments, RegexKernels.Patterns> patterns(CallSite site, int flags) {
        if (site.isConstant(1)) {
            RegexKernels.Patterns constant = RegexKernels.Patterns.constant(RegexKernels.compile((String) site.constant(1), flags, site.display()));
            return a -> constant;
        }
        return a -> RegexKernels.Patterns.perRow(a.operand(1), flags, a.display());
    }

    /** The options argument at {@code index} (none if the call has no such argument); it must be a constant. */
    private static RegexKernels.Options options(CallSite site, int index) {
        if (site.args().size() <= index) {
            return new RegexKernels.Options(0, false);
        }
        return RegexKernels.Options.parse(constantText(site, index, "options"), site.display());
    }

    private static int group(CallSite site) {
        if (site.args().size() < 3) {
            return 0;
        }
        Object value = site.isConstant(2) ? site.constant(2) : null;
        if (value == null) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "The group of regexp_extract must be a constant from 0 to 9: " + site.display());
        }
        return checkGroup(((Number) value).longValue(), site.display());
    }

    private static int checkGroup(long group, String call) {
        if (group < 0 || group > 9) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "The group of regexp_extract must be from 0 to 9, not " + group + ": " + call);
        }
        return (int) group;
    }

    private static String constantText(CallSite site, int index, String what) {
        if (!site.isConstant(index) || site.constant(index) == null) {
            throw new QuiverException(ErrorCode.NOT_SUPPORTED, "The " + what + " must be a constant string: " + site.display());
        }
        return (String) site.constant(index);
    }

    private static char escape(String text) {
        if (text.length() != 1) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "The escape must be one character: '" + text + "'");
        }
        return text.charAt(0);
    }

    /** A pattern in lower case, code point by code point, leaving the escape character as it is. */
    private static String lower(String pattern, Optional<Character> escape) {
        StringBuilder out = new StringBuilder(pattern.length());
        pattern.codePoints().forEach(c -> out.appendCodePoint(escape.isPresent() && c == escape.get() ? c : Character.toLowerCase(c)));
        return out.toString();
    }

    private static Operand lowered(Operand text, CallArguments a) {
        FieldVector lowered = TextCaseKernels.map(TextCaseKernels.Mapping.LOWER, text, a.rows(), a.allocator());
        return Operand.of(QuiverTypes.UTF8, lowered, a.rows());
    }
}
