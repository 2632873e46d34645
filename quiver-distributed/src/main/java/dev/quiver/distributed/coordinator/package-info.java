/**
 * The coordinator of distributed queries (DESIGN §4; docs/distributed.md, "The coordinator").
 *
 * <p>A {@link dev.quiver.distributed.coordinator.Coordinator} checks the workers, and each
 * {@link dev.quiver.distributed.coordinator.DistributedQuery} dispatches a
 * {@link dev.quiver.distributed.plan.DistributedPlan}'s stages producers first (routed by
 * {@link dev.quiver.distributed.plan.TaskRouter}), binds stage inputs and producer heads, runs the
 * head stage locally, records {@link dev.quiver.distributed.coordinator.spi.QueryEvent}s, ends every
 * task when the query ends and collects the final task reports into a
 * {@link dev.quiver.distributed.coordinator.FinalPlan}.
 *
 * <p>Invariants:
 * <ul>
 *   <li>a stage is dispatched only after every stage it reads was dispatched (closed → sized →
 *       dispatched, in that order, each with its event);</li>
 *   <li>every task that was sent ends with exactly one terminal report (from its worker, or FAILED
 *       for a broken stream or, as a last resort, a missing report), and the final plan completes
 *       exactly when all of them are in: it never waits for a task that will not run;</li>
 *   <li>whatever ends a query (its end, a failure, an early close, a cancel) half-closes every
 *       task's control stream once, so no task outlives its query on any worker;</li>
 *   <li>nothing blocks a transport thread: work a callback triggers (ending other tasks, closing
 *       control streams) runs on the session's executor.</li>
 * </ul>
 */
package dev.quiver.distributed.coordinator;
