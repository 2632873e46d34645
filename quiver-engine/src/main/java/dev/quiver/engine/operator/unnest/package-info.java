/**
 * {@code UNNEST}: {@link dev.quiver.engine.operator.unnest.UnnestExec} (the plan node: each input
 * row once per element of its lists, the lists zipped side by side and padded with NULLs, as in
 * DuckDB; its other columns repeated, the lists themselves dropped) and {@code UnnestStream} (one partition's walk over its input, a batch size of output rows
 * at a time). The SQL layer plans both {@code SELECT unnest(l)} and {@code FROM t, UNNEST(t.l)} on it.
 *
 * <p>Memory: it holds the input batch it is unnesting and the output batch it builds, no state
 * across batches, so it reserves nothing beyond the batches' own allocations.
 */
package dev.quiver.engine.operator.unnest;
