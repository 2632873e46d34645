/**
 * Adaptive Query Execution (DESIGN §5; docs/aqe.md), the parts that do not need the coordinator
 * loop: the byte-based {@link dev.quiver.distributed.aqe.CostModel} and the task-count formula
 * ({@link dev.quiver.distributed.aqe.AdaptiveTaskCount}); the
 * {@link dev.quiver.distributed.operator.SamplerExec} a worker puts below a producer head and the
 * {@link dev.quiver.distributed.protocol.PartitionSample} it reports; the coordinator's
 * {@link dev.quiver.distributed.aqe.StageSampleCollector} (stop rule and extrapolation to
 * {@link dev.quiver.distributed.aqe.SampledStatistics}); and the
 * {@link dev.quiver.distributed.aqe.EstimationAccuracy} harness.
 *
 * <p>Invariants: the sampler replays every batch it pulled exactly once and holds nothing after
 * close; every estimate handed to the engine is INEXACT; key sketches hash with the engine's
 * partition hash, so equal keys of different integer widths count once.
 */
package dev.quiver.distributed.aqe;
