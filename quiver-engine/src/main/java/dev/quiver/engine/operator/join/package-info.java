/**
 * Joins: {@link dev.quiver.engine.operator.join.HashJoinExec} (equi-join, left = build side) and
 * {@link dev.quiver.engine.operator.join.NestedLoopJoinExec} (any condition).
 *
 * <p>How the pieces fit:
 * <ul>
 *   <li>{@code BuildSide} — the build input collected ({@code BuildCollector}, partitions drained in
 *       parallel), concatenated into one batch ({@code BatchConcat}), with its key columns, a
 *       {@code JoinHashTable} and per-row match marks; everything reserved in the memory pool.</li>
 *   <li>{@code BuildSideHandle} — a probe partition's access to it: its own ({@code PartitionBuild},
 *       partitioned mode) or one shared by all probe partitions ({@code SharedBuild}, collect-left
 *       and nested-loop), which also decides which partition emits the build rows at the end.</li>
 *   <li>{@code PairSource} — candidate (build row, probe row) pairs of a probe batch, in bounded
 *       chunks: equal keys from the hash table ({@code HashProbe}, using the type-specialised
 *       {@code KeyKernel}s), or every pair ({@code CrossProduct}).</li>
 *   <li>{@code JoinStream} — the per-partition state machine: residual filter, match marks, and
 *       output gathered with {@link dev.quiver.engine.batch.Take} in batches of at most
 *       {@code batchSize} rows.</li>
 *   <li>{@code GraceJoinStream} — a partitioned join that spills: {@code GraceBuild} builds in a
 *       spillable reservation or hash-splits the build rows into spill files
 *       ({@code SpillPartitions}, by {@code SpillHash}); the probe rows are split alike, and each
 *       pair of files is joined by an ordinary {@code JoinStream}, split again if still too big.</li>
 * </ul>
 *
 * <p>Invariants: NULL keys never match; the residual filter decides matches (a pair it rejects is
 * no match for outer, semi and anti joins); build rows are emitted by their marks exactly once,
 * by the last probe partition to finish its input, and not at all if a probe partition was closed
 * early; the build side's memory is returned when the last probe partition using it closes.
 */
package dev.quiver.engine.operator.join;
