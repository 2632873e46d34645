package dev.quiver.engine.expr.function;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.expr.CastExpr;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.expr.ScalarFunctionExpr;
import dev.quiver.engine.types.QuiverTypes;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * A scalar function of the {@link FunctionRegistry}: everything the SQL validator, the expression
 * compiler, constant folding and the plan codec need to know of it.
 *
 * @param name the canonical name, lower case; the plan codec serializes a call by it
 * @param aliases other names SQL may call it by
 * @param signatures the argument forms it accepts
 * @param returnType the result type from the argument types
 * @param strict whether an argument that is the NULL constant makes the result NULL without
 *     evaluating anything (NULL rows of non-constant arguments are the kernel's to handle)
 * @param nullability when the result may be NULL
 * @param volatility whether a call on constants may be folded at planning
 * @param coercion the casts applied to arguments before the kernel sees them
 * @param kernel prepares the evaluation of one call
 * @param sqlForms how SQL writes a call, with {@code {0}, {1}, ..} for the arguments, e.g.
 *     {@code "{0} || {1}"}; a function callable by name has {@code name({0}, ..)} first, once per
 *     signature
 * @param callableByName whether SQL may call it as {@code name(args)}; a function reached only
 *     through special syntax (an operator, {@code EXTRACT(..)}) is not
 * @param category its family, for documentation
 * @param description one line for documentation
 */
public record ScalarFunction(
        String name,
        List<String> aliases,
        List<Signature> signatures,
        ReturnTypeRule returnType,
        boolean strict,
        Nullability nullability,
        Volatility volatility,
        ArgumentCoercion coercion,
        KernelBinder kernel,
        List<String> sqlForms,
        boolean callableByName,
        FunctionCategory category,
        String description) {
    public ScalarFunction {
        requireNonNull(name, "name is null");
        aliases = List.copyOf(requireNonNull(aliases, "aliases is null"));
        signatures = List.copyOf(requireNonNull(signatures, "signatures is null"));
        requireNonNull(returnType, "returnType is null");
        requireNonNull(nullability, "nullability is null");
        requireNonNull(volatility, "volatility is null");
        requireNonNull(coercion, "coercion is null");
        requireNonNull(kernel, "kernel is null");
        sqlForms = List.copyOf(requireNonNull(sqlForms, "sqlForms is null"));
        requireNonNull(category, "category is null");
        requireNonNull(description, "description is null");
        if (!name.equals(name.toLowerCase(Locale.ROOT))) {
            throw new IllegalArgumentException("function names are lower case: " + name);
        }
        if (signatures.isEmpty()) {
            throw new IllegalArgumentException(name + " needs a signature");
        }
        if (sqlForms.isEmpty()) {
            throw new IllegalArgumentException(name + " needs a SQL form");
        }
    }

    public static Builder builder(String name, FunctionCategory category) {
        return new Builder(name, category);
    }

    /** The name and the aliases. */
    public List<String> names() {
        List<String> names = new ArrayList<>();
        names.add(name);
        names.addAll(aliases);
        return names;
    }

    public Optional<Signature> signatureFor(List<ArrowType> argumentTypes) {
        return signatures.stream().filter(s -> s.accepts(argumentTypes)).findFirst();
    }

    /** The result type of a call with these arguments; TYPE_MISMATCH when no signature accepts them. */
    public ArrowType resultType(ArgumentTypes args) {
        checkArguments(args.types(), ErrorCode.TYPE_MISMATCH);
        return returnType.resolve(args);
    }

    /**
     * A call of this function returning {@code resultType}, with the arguments cast as the
     * function's {@link #coercion} asks.
     */
    public ScalarFunctionExpr call(List<PhysicalExpr> args, ArrowType resultType) {
        List<ArrowType> types = args.stream().map(PhysicalExpr::type).toList();
        List<ArrowType> targets = coercion.targets(types, resultType);
        List<PhysicalExpr> coerced = new ArrayList<>(args.size());
        for (int i = 0; i < args.size(); i++) {
            ArrowType target = targets.get(i);
            coerced.add(target == null ? args.get(i) : CastExpr.to(args.get(i), target));
        }
        return new ScalarFunctionExpr(this, coerced, resultType);
    }

    /** Fails with {@code code} unless some signature accepts {@code argumentTypes}. */
    public void checkArguments(List<ArrowType> argumentTypes, ErrorCode code) {
        if (signatureFor(argumentTypes).isEmpty()) {
            throw new QuiverException(code, "The function " + name + " does not accept ("
                    + argumentTypes.stream().map(QuiverTypes::sqlName).collect(Collectors.joining(", ")) + "); it takes "
                    + signatures.stream().map(s -> s.display(name)).collect(Collectors.joining(" or ")));
        }
    }

    /** Builds a {@link ScalarFunction}; defaults: strict, NULL when any argument is, immutable, no coercion, callable by name. */
    public static final class Builder {
        private final String name;
        private final FunctionCategory category;
        private final List<String> aliases = new ArrayList<>();
        private final List<Signature> signatures = new ArrayList<>();
        private final List<String> sqlForms = new ArrayList<>();
        private ReturnTypeRule returnType;
        private boolean strict = true;
        private Nullability nullability = Nullability.ANY_ARGUMENT;
        private Volatility volatility = Volatility.IMMUTABLE;
        private ArgumentCoercion coercion = ArgumentCoercion.NONE;
        private KernelBinder kernel;
        private boolean callableByName = true;
        private String description = "";

        private Builder(String name, FunctionCategory category) {
            this.name = requireNonNull(name, "name is null");
            this.category = requireNonNull(category, "category is null");
        }

        public Builder aliases(String... names) {
            aliases.addAll(List.of(names));
            return this;
        }

        public Builder signature(Parameter... parameters) {
            signatures.add(Signature.of(parameters));
            return this;
        }

        public Builder variadic(Parameter... parameters) {
            signatures.add(Signature.variadic(parameters));
            return this;
        }

        public Builder returns(ReturnTypeRule rule) {
            this.returnType = rule;
            return this;
        }

        public Builder returns(ArrowType type) {
            return returns(ReturnTypeRule.fixed(type));
        }

        /** The kernel handles NULL constants itself (and the result may be non-NULL for NULL arguments). */
        public Builder notStrict() {
            this.strict = false;
            return this;
        }

        public Builder nullability(Nullability nullability) {
            this.nullability = nullability;
            return this;
        }

        public Builder volatility(Volatility volatility) {
            this.volatility = volatility;
            return this;
        }

        public Builder coercion(ArgumentCoercion coercion) {
            this.coercion = coercion;
            return this;
        }

        /** A kernel that needs no preparation per call site. */
        public Builder kernel(Kernel kernel) {
            requireNonNull(kernel, "kernel is null");
            this.kernel = site -> kernel;
            return this;
        }

        public Builder binder(KernelBinder binder) {
            this.kernel = binder;
            return this;
        }

        /** Reached only through special syntax, written as {@code forms} (see {@link ScalarFunction#sqlForms}). */
        public Builder syntax(String... forms) {
            this.callableByName = false;
            sqlForms.addAll(List.of(forms));
            return this;
        }

        /** Further ways SQL writes a call besides {@code name(args)}. */
        public Builder alsoWritten(String... forms) {
            sqlForms.addAll(List.of(forms));
            return this;
        }

        public Builder description(String text) {
            this.description = text;
            return this;
        }

        public ScalarFunction build() {
            List<String> forms = new ArrayList<>();
            if (callableByName) {
                // name(..) with each signature's number of arguments
                for (Signature signature : signatures) {
                    List<String> holes = new ArrayList<>();
                    for (int i = 0; i < signature.minArguments(); i++) {
                        holes.add("{" + i + "}");
                    }
                    String form = name + "(" + String.join(", ", holes) + ")";
                    if (!forms.contains(form)) {
                        forms.add(form);
                    }
                }
            }
            forms.addAll(sqlForms);
            return new ScalarFunction(name, aliases, signatures, requireNonNull(returnType, "returnType is not set"), strict, nullability,
                    volatility, coercion, requireNonNull(kernel, "kernel is not set"), forms, callableByName, category, description);
        }
    }
}
