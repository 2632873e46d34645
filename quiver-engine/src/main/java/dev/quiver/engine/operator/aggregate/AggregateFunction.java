package dev.quiver.engine.operator.aggregate;

/**
 * The aggregate functions, with the shape of their calls ({@link AggregateExpr}). Every function
 * skips NULL inputs (a row whose argument, or one of whose two arguments, is NULL adds nothing);
 * over no rows COUNT is 0 and every other function NULL.
 *
 * <p>Decomposable functions have a partial state ({@link AggregateExpr#stateFields()}) and run in
 * PARTIAL and FINAL steps; {@linkplain #holistic() holistic} ones gather their values and run in one
 * SINGLE step over input partitioned by the group keys.
 */
public enum AggregateFunction {
    /** {@code COUNT(*)} with no argument; {@code COUNT(x, ...)} counts rows where no argument is NULL. */
    COUNT(0, Integer.MAX_VALUE, false),
    SUM(1, 1, false),
    AVG(1, 1, false),
    MIN(1, 1, false),
    MAX(1, 1, false),
    /** Sample variance (n - 1 in the denominator); NULL below two values. */
    VAR_SAMP(1, 1, false),
    /** Population variance (n in the denominator). */
    VAR_POP(1, 1, false),
    STDDEV_SAMP(1, 1, false),
    STDDEV_POP(1, 1, false),
    /** {@code COVAR_SAMP(y, x)}; NULL below two pairs. */
    COVAR_SAMP(2, 2, false),
    COVAR_POP(2, 2, false),
    /** {@code CORR(y, x)}: the Pearson correlation; NaN when either variance is 0 (as DuckDB gives). */
    CORR(2, 2, false),
    /** {@code REGR_SLOPE(y, x)}: the least-squares slope; NULL when the variance of x is 0. */
    REGR_SLOPE(2, 2, false),
    REGR_INTERCEPT(2, 2, false),
    /** {@code REGR_R2(y, x)}: NULL when the variance of x is 0, 1 when that of y is. */
    REGR_R2(2, 2, false),
    REGR_AVGX(2, 2, false),
    REGR_AVGY(2, 2, false),
    REGR_SXX(2, 2, false),
    REGR_SYY(2, 2, false),
    REGR_SXY(2, 2, false),
    /**
     * {@code PERCENTILE_CONT(f) WITHIN GROUP (ORDER BY x)}: no argument, one ORDER BY key (the
     * values), one parameter (the fraction f in [0, 1]); interpolates between the two nearest values.
     */
    PERCENTILE_CONT(0, 0, true),
    /** As {@link #PERCENTILE_CONT}, but the first value whose cumulative distribution reaches f. */
    PERCENTILE_DISC(0, 0, true),
    /** {@code MODE(x)}: the most frequent value; of equally frequent ones the smallest. */
    MODE(1, 1, true),
    /**
     * {@code STRING_AGG(x, separator ORDER BY ...)}: the VARCHAR values joined by the separator (the
     * one parameter), in the order of the ORDER BY keys (ties, and no keys: input order).
     */
    STRING_AGG(1, 1, true),
    /**
     * {@code APPROX_COUNT_DISTINCT(x)}: the number of distinct values, estimated with HyperLogLog
     * (exact for small groups); a partial state, so it distributes as COUNT does.
     */
    APPROX_COUNT_DISTINCT(1, 1, false),
    /**
     * {@code APPROX_QUANTILE(x, f)}: the f-quantile of x (the one parameter, in [0, 1]) estimated
     * with a t-digest, of x's type; a partial state, unlike the exact percentiles.
     */
    APPROX_QUANTILE(1, 1, false);

    private final int minArgs;
    private final int maxArgs;
    private final boolean holistic;

    AggregateFunction(int minArgs, int maxArgs, boolean holistic) {
        this.minArgs = minArgs;
        this.maxArgs = maxArgs;
        this.holistic = holistic;
    }

    int minArgs() {
        return minArgs;
    }

    int maxArgs() {
        return maxArgs;
    }

    /** Whether the function has no partial state: it needs every value of a group at once (SINGLE mode only). */
    public boolean holistic() {
        return holistic;
    }
}
