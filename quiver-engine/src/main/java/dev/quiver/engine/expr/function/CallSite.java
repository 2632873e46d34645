package dev.quiver.engine.expr.function;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.expr.LiteralExpr;
import dev.quiver.engine.expr.PhysicalExpr;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;

/** A call of a function as a {@link KernelBinder} sees it: the argument expressions, the result type, the display text. */
public record CallSite(ScalarFunction function, List<PhysicalExpr> args, ArrowType resultType, String display) {
    public CallSite {
        requireNonNull(function, "function is null");
        args = List.copyOf(requireNonNull(args, "args is null"));
        requireNonNull(resultType, "resultType is null");
        requireNonNull(display, "display is null");
    }

    /** The arguments of one evaluation over {@code batch}; the caller closes them. */
    public CallArguments arguments(VectorSchemaRoot batch, BufferAllocator allocator) {
        return new CallArguments(this, batch, allocator);
    }

    public ArrowType argType(int index) {
        return args.get(index).type();
    }

    public boolean isConstant(int index) {
        return args.get(index) instanceof LiteralExpr;
    }

    /** The constant value of argument {@code index} (null for NULL); only when {@link #isConstant}. */
    public Object constant(int index) {
        return ((LiteralExpr) args.get(index)).value();
    }
}
