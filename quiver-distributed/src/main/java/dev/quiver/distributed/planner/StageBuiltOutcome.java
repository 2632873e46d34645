package dev.quiver.distributed.planner;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.plan.StageFragment;
import dev.quiver.engine.execution.ExecutionPlan;

/**
 * What the handlers' responses to one {@code DynamicStageBuiltEvent} amount to.
 *
 * @param producerPlan the producer plan after every handler (the event's own when none rewrote it)
 * @param rewritten whether a handler rewrote it: then the producer's cost, {@code P} and task count
 *     must be recomputed ({@link #applyTo} and {@code DistributedPlanner.size}) before it is dispatched
 * @param requirements the consumer counts the handlers asked for, already validated
 */
public record StageBuiltOutcome(ExecutionPlan producerPlan, boolean rewritten, BoundaryRequirements requirements) {
    public StageBuiltOutcome {
        requireNonNull(producerPlan, "producerPlan is null");
        requireNonNull(requirements, "requirements is null");
    }

    /** The producer's fragment with the rewritten plan, to size again; {@code fragment} itself when nothing was rewritten. */
    public StageFragment applyTo(StageFragment fragment) {
        requireNonNull(fragment, "fragment is null");
        if (!rewritten) {
            return fragment;
        }
        return fragment.withPlan(producerPlan);
    }
}
