package dev.quiver.engine.expr;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.expr.kernel.FunctionKernels;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;

/** A call of a built-in {@link ScalarFunction}; {@code type} is the result type. */
public record ScalarFunctionExpr(ScalarFunction function, List<PhysicalExpr> args, ArrowType type) implements PhysicalExpr {
    public ScalarFunctionExpr {
        requireNonNull(function, "function is null");
        args = List.copyOf(requireNonNull(args, "args is null"));
        requireNonNull(type, "type is null");
    }

    @Override
    public boolean nullable() {
        if (function == ScalarFunction.COALESCE) {
            return args.stream().allMatch(PhysicalExpr::nullable);
        }
        return args.stream().anyMatch(PhysicalExpr::nullable);
    }

    @Override
    public FieldVector evaluate(VectorSchemaRoot batch, BufferAllocator allocator) {
        return FunctionKernels.evaluate(this, batch, allocator);
    }

    @Override
    public List<PhysicalExpr> children() {
        return args;
    }

    @Override
    public String display() {
        return function.name().toLowerCase(java.util.Locale.ROOT)
                + args.stream().map(PhysicalExpr::display).collect(Collectors.joining(", ", "(", ")"));
    }
}
