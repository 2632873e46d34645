/**
 * The vectorized kernels behind {@link dev.quiver.engine.expr.PhysicalExpr#evaluate}.
 *
 * <p>Invariants every kernel keeps:
 * <ul>
 *   <li>Operands arrive as {@link dev.quiver.engine.expr.kernel.Operand}s: a literal stays a
 *       constant (the scalar fast paths), a column is borrowed from the batch, anything else is
 *       an owned vector. Kernels only read operands and return a new vector the caller owns.</li>
 *   <li>Hot loops run over Arrow buffers or primitive arrays decoded from them, with no boxing
 *       or allocation per row; NULL rows decode as zero so they never raise a spurious error,
 *       and validity is combined 64 rows at a time.</li>
 *   <li>Decimals compute on unscaled {@code long}s and redo a batch in 128 bits
 *       ({@link dev.quiver.engine.types.Decimal128}) when 64 bits overflow; results are checked
 *       against the result type's precision.</li>
 *   <li>Errors are {@link dev.quiver.engine.error.QuiverException}s naming the expression:
 *       NUMERIC_VALUE_OUT_OF_RANGE, DIVISION_BY_ZERO (non-NULL rows only), INVALID_CAST.</li>
 *   <li>Variable-width results are written in row order, as Arrow requires.</li>
 * </ul>
 */
package dev.quiver.engine.expr.kernel;
