/**
 * The distributed planner (DESIGN §4–§6; docs/distributed.md "The distributed planner"): the passes
 * that cut a single-node plan into stages ({@code StageCutter}) and size each stage
 * ({@code StageSizer}), statically ({@link dev.quiver.distributed.planner.DistributedPlanner}) or
 * one stage at a time under AQE; and the stage events' rules: running the handlers
 * ({@link dev.quiver.distributed.planner.StageEventDispatcher}), what they require at each boundary
 * ({@link dev.quiver.distributed.planner.BoundaryRequirements}) and the shuffle layout an exact
 * consumer count with its {@code P_c} gives ({@link dev.quiver.distributed.planner.ShuffleLayout}).
 *
 * <p>Invariants: every plan a pass returns passes {@link dev.quiver.distributed.plan.StageConsistency};
 * every task count comes from a merged hint whose origin says why; an exact count is validated when
 * a handler returns it, before the producer it sizes is dispatched.
 */
package dev.quiver.distributed.planner;
