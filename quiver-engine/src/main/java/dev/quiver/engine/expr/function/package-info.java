/**
 * The scalar-function registry: one {@link dev.quiver.engine.expr.function.ScalarFunction} per
 * function — names, {@link dev.quiver.engine.expr.function.Signature}s, a
 * {@link dev.quiver.engine.expr.function.ReturnTypeRule}, nullability, volatility and a
 * {@link dev.quiver.engine.expr.function.KernelBinder} — collected in the
 * {@link dev.quiver.engine.expr.function.FunctionRegistry}.
 *
 * <h2>Invariants</h2>
 * <ul>
 * <li>The SQL layer types a call with the function's return-type rule and the engine evaluates it
 *     with the function's kernel; nothing else computes a function, constant folding included.
 * <li>A kernel is bound once per call site, when the {@link dev.quiver.engine.expr.ScalarFunctionExpr}
 *     is built: constant arguments are checked (and regular expressions compiled) there.
 * <li>A strict function with a NULL constant argument is the NULL constant; its kernel still
 *     handles NULL rows of other arguments.
 * <li>Families live in one class each ({@code StringFunctions}, {@code MathFunctions},
 *     {@code ConditionalFunctions}, {@code DateTimeFunctions}, {@code NestedFunctions}); the kernels they call live in
 *     {@link dev.quiver.engine.expr.kernel}.
 * </ul>
 */
package dev.quiver.engine.expr.function;
