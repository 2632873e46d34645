package dev.quiver.engine.expr.function;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The scalar functions Quiver knows, by name and alias (case-insensitive). The SQL layer builds
 * its operator table from a registry and translates calls through it, and the plan codec
 * serializes a call by its function's name, so a function exists everywhere or nowhere.
 * Immutable and thread-safe.
 */
public final class FunctionRegistry {
    private static final FunctionRegistry BUILTINS = new FunctionRegistry(builtinFunctions());

    private final List<ScalarFunction> functions;
    private final Map<String, ScalarFunction> byName;

    public FunctionRegistry(List<ScalarFunction> functions) {
        this.functions = List.copyOf(requireNonNull(functions, "functions is null"));
        Map<String, ScalarFunction> names = new LinkedHashMap<>();
        for (ScalarFunction function : this.functions) {
            for (String name : function.names()) {
                ScalarFunction previous = names.put(name.toLowerCase(Locale.ROOT), function);
                if (previous != null) {
                    throw new IllegalArgumentException("two functions are named " + name + ": " + previous.name() + " and " + function.name());
                }
            }
        }
        this.byName = Map.copyOf(names);
    }

    /** Every built-in function. */
    public static FunctionRegistry builtins() {
        return BUILTINS;
    }

    private static List<ScalarFunction> builtinFunctions() {
        List<ScalarFunction> all = new ArrayList<>();
        all.addAll(StringFunctions.all());
        all.addAll(PatternFunctions.all());
        all.addAll(MathFunctions.all());
        all.addAll(ConditionalFunctions.all());
        all.addAll(DateTimeFunctions.all());
        all.addAll(NestedFunctions.all());
        return all;
    }

    public List<ScalarFunction> functions() {
        return functions;
    }

    /** The function with this name or alias, in any case. */
    public Optional<ScalarFunction> lookup(String name) {
        return Optional.ofNullable(byName.get(name.toLowerCase(Locale.ROOT)));
    }

    /** The function with this name or alias; FUNCTION_NOT_FOUND otherwise. */
    public ScalarFunction require(String name) {
        return lookup(name).orElseThrow(() -> new QuiverException(ErrorCode.FUNCTION_NOT_FOUND, "Unknown function '" + name + "'"));
    }
}
