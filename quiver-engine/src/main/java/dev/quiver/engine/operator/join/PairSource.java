package dev.quiver.engine.operator.join;

import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * Produces the candidate pairs (build row, probe row) of one probe batch, a bounded chunk at a
 * time, so that a probe row with many partners never makes one giant batch. A hash join yields
 * the pairs with equal keys ({@link HashProbe}); a nested-loop join every pair ({@link CrossProduct}).
 * The residual filter is applied by the caller.
 */
interface PairSource extends AutoCloseable {
    /** Starts on a probe batch, which stays open until {@link #finishBatch()}. */
    void start(VectorSchemaRoot probe);

    /** Whether the current probe batch may have more pairs. */
    boolean hasMore();

    /**
     * Writes up to {@code max} pairs into {@code buildRows}/{@code probeRows} and returns how many.
     * Zero does not mean the end: see {@link #hasMore()}.
     */
    int fill(int[] buildRows, int[] probeRows, int max);

    /** Releases what was derived from the current probe batch. */
    void finishBatch();

    @Override
    void close();
}
