/**
 * Sorting: {@link dev.quiver.engine.operator.sort.SortExec} (full sort and top-k) and the pieces
 * the merge in {@code exchange} shares with it: key columns copied into typed arrays
 * ({@code SortColumn}), a {@link dev.quiver.engine.operator.sort.RowComparator} over them that also
 * compares rows of different batches, and {@link dev.quiver.engine.operator.sort.MultiTake}, which
 * gathers rows from several batches.
 *
 * <p>Ordering: NULLs go first or last as the key says, independent of direction; strings compare
 * by their UTF-8 bytes (code point order); doubles with {@code -0.0 = 0.0} and NaN last; decimals
 * by their unscaled value (one column has one scale). A sort holds its input in a reservation named
 * {@code SortExec[partition=N]}; the output is a new set of batches.
 */
package dev.quiver.engine.operator.sort;
