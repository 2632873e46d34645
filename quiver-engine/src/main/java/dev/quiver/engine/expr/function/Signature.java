package dev.quiver.engine.expr.function;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * The parameters a function accepts in one form. With {@code variadic}, the last parameter
 * repeats: {@code concat(value ANY...)} takes one or more arguments.
 */
public record Signature(List<Parameter> parameters, boolean variadic) {
    public Signature {
        parameters = List.copyOf(requireNonNull(parameters, "parameters is null"));
        if (variadic && parameters.isEmpty()) {
            throw new IllegalArgumentException("a variadic signature needs a parameter to repeat");
        }
    }

    public static Signature of(Parameter... parameters) {
        return new Signature(List.of(parameters), false);
    }

    /** The last parameter repeats any number of times (at least once). */
    public static Signature variadic(Parameter... parameters) {
        return new Signature(List.of(parameters), true);
    }

    public int minArguments() {
        return parameters.size();
    }

    public int maxArguments() {
        return variadic ? Integer.MAX_VALUE : parameters.size();
    }

    /** The parameter that argument {@code index} binds to. */
    public Parameter parameter(int index) {
        return index < parameters.size() ? parameters.get(index) : parameters.get(parameters.size() - 1);
    }

    public boolean accepts(List<ArrowType> argumentTypes) {
        if (argumentTypes.size() < minArguments() || argumentTypes.size() > maxArguments()) {
            return false;
        }
        for (int i = 0; i < argumentTypes.size(); i++) {
            if (!parameter(i).type().accepts(argumentTypes.get(i))) {
                return false;
            }
        }
        return true;
    }

    /** {@code lpad(string VARCHAR, length INTEGER, fill VARCHAR)}. */
    public String display(String functionName) {
        List<String> shown = new ArrayList<>();
        parameters.forEach(p -> shown.add(p.display()));
        return functionName + "(" + String.join(", ", shown) + (variadic ? "..." : "") + ")";
    }
}
