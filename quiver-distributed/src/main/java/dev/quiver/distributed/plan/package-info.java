/**
 * The distributed plan (DESIGN §4), as the planner ({@code dev.quiver.distributed.planner}) builds
 * it: {@link dev.quiver.distributed.plan.Stage}s cut at shuffle, coalesce and broadcast boundaries,
 * sized from {@link dev.quiver.distributed.plan.TaskCountHint}s;
 * {@link dev.quiver.distributed.plan.TaskEstimator}s split source leaves over tasks;
 * {@link dev.quiver.distributed.plan.TaskRouter} places tasks on workers.
 *
 * <p>Invariants of a {@link dev.quiver.distributed.plan.DistributedPlan} (checked by
 * {@link dev.quiver.distributed.plan.StageConsistency}): stages come producers first and the head
 * stage, one task of one partition run on the coordinator, last; every task plan of a stage has
 * the same shape and partition count, its leaves reading disjoint shares; every
 * {@link dev.quiver.distributed.operator.StageInputExec} carries its producer's task and partition
 * counts and its consumer's. Every task count comes from a merged hint whose origin says why, and
 * no stage has more tasks than {@code max_tasks_per_stage}.
 */
package dev.quiver.distributed.plan;
