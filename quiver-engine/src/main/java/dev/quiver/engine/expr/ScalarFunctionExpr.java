package dev.quiver.engine.expr;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.expr.function.CallArguments;
import dev.quiver.engine.expr.function.CallSite;
import dev.quiver.engine.expr.function.Kernel;
import dev.quiver.engine.expr.function.ScalarFunction;
import dev.quiver.engine.expr.function.Signature;
import dev.quiver.engine.expr.kernel.Vectors;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * A call of a registry {@link ScalarFunction}; {@code type} is the result type (the SQL layer
 * derives it with the function's own return-type rule). The kernel is bound once, here: a
 * constant argument a function cannot use (a regular expression that does not compile) fails
 * when the plan is built. Not a record only because it holds that bound kernel, which is derived
 * from the other fields and takes no part in equality.
 */
public final class ScalarFunctionExpr implements PhysicalExpr {
    private final ScalarFunction function;
    private final List<PhysicalExpr> args;
    private final ArrowType type;
    private final Kernel kernel;
    private final CallSite site;

    /** Arguments must fit a signature of {@code function} (PLAN_ERROR otherwise); see {@link ScalarFunction#call} for coercion. */
    public ScalarFunctionExpr(ScalarFunction function, List<PhysicalExpr> args, ArrowType type) {
        this.function = requireNonNull(function, "function is null");
        this.args = List.copyOf(requireNonNull(args, "args is null"));
        this.type = requireNonNull(type, "type is null");
        function.checkArguments(this.args.stream().map(PhysicalExpr::type).toList(), ErrorCode.PLAN_ERROR);
        this.site = new CallSite(function, this.args, type, display(function, this.args));
        checkConstants(function, this.args);
        this.kernel = function.strict() && hasNullConstant(this.args)
                ? call -> Vectors.constant(call.resultType(), null, call.rows(), call.allocator())
                : function.kernel().bind(site);
    }

    /** The parameters' checks of constant arguments, run even when a NULL argument makes the call NULL, so constants fail alike. */
    private static void checkConstants(ScalarFunction function, List<PhysicalExpr> args) {
        Signature signature = function.signatureFor(args.stream().map(PhysicalExpr::type).toList()).orElseThrow();
        for (int i = 0; i < args.size(); i++) {
            if (args.get(i) instanceof LiteralExpr literal && literal.value() != null) {
                signature.parameter(i).check().check(literal.value());
            }
        }
    }

    private static boolean hasNullConstant(List<PhysicalExpr> args) {
        return args.stream().anyMatch(a -> a instanceof LiteralExpr literal && literal.value() == null);
    }

    public ScalarFunction function() {
        return function;
    }

    public List<PhysicalExpr> args() {
        return args;
    }

    @Override
    public ArrowType type() {
        return type;
    }

    @Override
    public boolean nullable() {
        return function.nullability().resultNullable(args.stream().map(PhysicalExpr::nullable).toList());
    }

    @Override
    public FieldVector evaluate(VectorSchemaRoot batch, BufferAllocator allocator) {
        try (CallArguments arguments = site.arguments(batch, allocator)) {
            return kernel.evaluate(arguments);
        }
    }

    @Override
    public List<PhysicalExpr> children() {
        return args;
    }

    @Override
    public String display() {
        return site.display();
    }

    private static String display(ScalarFunction function, List<PhysicalExpr> args) {
        return function.name() + args.stream().map(PhysicalExpr::display).collect(Collectors.joining(", ", "(", ")"));
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ScalarFunctionExpr that && function.name().equals(that.function.name()) && args.equals(that.args)
                && type.equals(that.type);
    }

    @Override
    public int hashCode() {
        return Objects.hash(function.name(), args, type);
    }

    @Override
    public String toString() {
        return "ScalarFunctionExpr[" + display() + " AS " + type + "]";
    }
}
