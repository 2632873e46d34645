package dev.quiver.engine.expr.function;

/**
 * Prepares a {@link Kernel} for one call site, once, when the expression is built: the place to
 * compile a constant regular expression or check a constant argument, so that evaluation does
 * not repeat it per batch and a bad constant fails before any data is read.
 */
@FunctionalInterface
public interface KernelBinder {
    Kernel bind(CallSite site);
}
