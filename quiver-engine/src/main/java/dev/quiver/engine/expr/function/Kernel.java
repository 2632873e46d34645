package dev.quiver.engine.expr.function;

import org.apache.arrow.vector.FieldVector;

/**
 * A function's evaluation for one call site, a batch at a time: returns a new vector of
 * {@code args.rows()} values of {@code args.resultType()}, which the caller owns. Kernels read
 * their operands through {@link CallArguments} (evaluated on first use, closed by the caller) and
 * keep the invariants of {@link dev.quiver.engine.expr.kernel}: no per-row boxing on hot paths,
 * errors as {@link dev.quiver.engine.error.QuiverException}s naming the expression.
 */
@FunctionalInterface
public interface Kernel {
    FieldVector evaluate(CallArguments args);
}
