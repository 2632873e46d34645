/**
 * The coordinator of distributed queries (DESIGN §4): checks the workers, dispatches a
 * {@link dev.quiver.distributed.plan.DistributedPlan}'s stages producers first with even routing,
 * binds stage inputs and producer heads, runs the head stage locally, records query events, ends
 * every task when the query ends and collects the final task reports ({@link
 * dev.quiver.distributed.coordinator.DistributedQuery#finalPlan()}).
 */
package dev.quiver.distributed.coordinator;
