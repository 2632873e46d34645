/**
 * The plan nodes of distributed execution, next to the engine's operators:
 * {@link dev.quiver.distributed.operator.StageInputExec} (a stage's read of another stage's output
 * across a boundary, through the {@link dev.quiver.distributed.operator.ExchangeClient} its
 * {@code TaskContext} offers), {@link dev.quiver.distributed.operator.SamplerExec} (AQE's sampler
 * below a producer head) and {@link dev.quiver.distributed.operator.InOrderCoalesceExec} (the head
 * stage's coalesce under a LIMIT); and what describes a plan's boundaries and driver path
 * ({@link dev.quiver.distributed.operator.BoundaryKind}, {@link dev.quiver.distributed.operator.DriverLeaves}).
 *
 * <p>Invariants: nodes are immutable and rewritten through {@code withNewChildren}; a sampler
 * replays every batch it pulled exactly once and holds nothing after close; a stage input checks
 * that it is bound before it reads.
 */
package dev.quiver.distributed.operator;
