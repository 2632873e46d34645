/**
 * Display of distributed plans for {@code EXPLAIN} and {@code EXPLAIN ANALYZE}:
 * {@link dev.quiver.distributed.explain.DistributedExplain} renders stages, their task counts and
 * hints, boundaries with their partition math and, given the tasks' reports, per-task states and
 * summed operator metrics, as text or Graphviz DOT. Output is deterministic for given arguments.
 */
package dev.quiver.distributed.explain;
