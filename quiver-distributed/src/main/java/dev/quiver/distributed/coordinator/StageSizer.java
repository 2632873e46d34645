package dev.quiver.distributed.coordinator;

import dev.quiver.distributed.plan.DistributedPlan;
import dev.quiver.distributed.plan.Stage;

/**
 * Decides the task count of a stage once it is closed (its inputs dispatched), just before its
 * tasks are dispatched. Static planning keeps the planner's count; adaptive execution (DESIGN §5)
 * will size a stage from the samples of its inputs here, and rewrite the consumer's inputs to match.
 */
@FunctionalInterface
interface StageSizer {
    /** The stage as it will run. */
    Stage size(DistributedPlan plan, Stage closed);

    /** Keeps the task counts chosen at planning time. */
    static StageSizer planned() {
        return (plan, closed) -> closed;
    }
}
