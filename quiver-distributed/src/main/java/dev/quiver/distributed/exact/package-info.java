/**
 * Exact consumer task counts (DESIGN §6, issue 6): applying stage-event handlers' responses
 * ({@link dev.quiver.distributed.exact.StageEventDispatcher}), the per-boundary requirements they
 * leave ({@link dev.quiver.distributed.exact.BoundaryRequirements}), the consistent shuffle layout
 * of an exact consumer ({@link dev.quiver.distributed.exact.ShuffleLayout}) and the reference
 * handler {@link dev.quiver.distributed.exact.AggregateMemorySizingHandler}.
 */
package dev.quiver.distributed.exact;
