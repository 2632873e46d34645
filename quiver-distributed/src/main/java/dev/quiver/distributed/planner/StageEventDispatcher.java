package dev.quiver.distributed.planner;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.event.DynamicStageBuiltEvent;
import dev.quiver.distributed.event.DynamicStageBuiltEventResponse;
import dev.quiver.distributed.event.StageBoundary;
import dev.quiver.distributed.event.StageEventHandler;
import dev.quiver.distributed.event.StageSampledEvent;
import dev.quiver.distributed.event.StageSampledEventResponse;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.ExecutionPlan;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Runs the registered {@link StageEventHandler}s and applies their responses (DESIGN §6): in
 * registration order, each handler seeing the producer plan the previous one left; a rewritten
 * plan is re-validated at once; a consumer count becomes a hint with origin
 * {@code handler <name> (stage p → stage c)} and is validated the moment the handler returns it
 * (an exact above the task limit, two different exacts, an exact against a one-task consumer:
 * {@code TASK_COUNT_CONFLICT} naming both origins), so nothing is dispatched on a plan that cannot
 * run; an error response, or an exception a handler throws, fails the query naming the handler.
 * Stateless and thread-safe when the handlers are.
 */
public final class StageEventDispatcher {
    private final List<StageEventHandler> handlers;

    public StageEventDispatcher(List<StageEventHandler> handlers) {
        this.handlers = List.copyOf(requireNonNull(handlers, "handlers is null"));
        Set<String> names = new HashSet<>();
        for (StageEventHandler handler : this.handlers) {
            if (!names.add(requireNonNull(handler.name(), "handler name is null"))) {
                throw new QuiverException(ErrorCode.INVALID_CONFIGURATION, "two stage-event handlers are named " + handler.name()
                        + "; names tell their task counts apart in plans and errors");
            }
        }
    }

    public static StageEventDispatcher none() {
        return new StageEventDispatcher(List.of());
    }

    public boolean isEmpty() {
        return handlers.isEmpty();
    }

    /**
     * Fires {@code event} (the producer sized, not dispatched) at every handler in order.
     *
     * @throws QuiverException the first error: a handler's, a refused rewrite ({@code PLAN_ERROR}) or a count conflict ({@code TASK_COUNT_CONFLICT})
     */
    public StageBuiltOutcome onStageBuilt(DynamicStageBuiltEvent event) {
        requireNonNull(event, "event is null");
        DynamicStageBuiltEvent current = event;
        BoundaryRequirements requirements = BoundaryRequirements.none(event.boundary());
        boolean rewritten = false;
        for (StageEventHandler handler : handlers) {
            DynamicStageBuiltEventResponse response = call(handler, current, "stage-built");
            if (response.error().isPresent()) {
                throw failed(handler, current.boundary().describe(), response.error().get());
            }
            if (response.rewrittenPlan().isPresent()) {
                ExecutionPlan plan = response.rewrittenPlan().get();
                ProducerRewriteCheck.check(handler.name(), current.boundary(), current.producerPlan(), plan);
                rewritten |= plan != current.producerPlan();
                current = current.withProducerPlan(plan);
            }
            if (response.consumerTasks().isPresent()) {
                requirements = requirements.with(handler.name(), response.consumerTasks().get());
            }
        }
        return new StageBuiltOutcome(current.producerPlan(), rewritten, requirements);
    }

    /**
     * Fires {@code event} (the producer sampled, its consumer not sized yet) at every handler in
     * order. A handler's count here replaces its own count from the stage-built event, which it may
     * confirm or raise but not lower ({@link BoundaryRequirements#withSampled}).
     *
     * @param built what the stage-built event left for this boundary
     * @return the boundary's requirements to size the consumer with
     */
    public BoundaryRequirements onStageSampled(StageSampledEvent event, BoundaryRequirements built) {
        requireNonNull(event, "event is null");
        requireNonNull(built, "built is null");
        if (built.boundary().producerStageId() != event.boundary().producerStageId()
                || built.boundary().consumerStageId() != event.boundary().consumerStageId()) {
            throw new IllegalArgumentException("requirements of " + built.boundary().describe() + " offered for " + event.boundary().describe());
        }
        BoundaryRequirements requirements = new BoundaryRequirements(event.boundary(), built.counts());
        for (StageEventHandler handler : handlers) {
            StageSampledEventResponse response = call(handler, event, "stage-sampled");
            if (response.error().isPresent()) {
                throw failed(handler, event.boundary().describe(), response.error().get());
            }
            if (response.consumerTasks().isPresent()) {
                requirements = requirements.withSampled(handler.name(), response.consumerTasks().get());
            }
        }
        return requirements;
    }

    private static DynamicStageBuiltEventResponse call(StageEventHandler handler, DynamicStageBuiltEvent event, String kind) {
        return call(handler, event.boundary(), kind, () -> handler.onStageBuilt(event));
    }

    private static StageSampledEventResponse call(StageEventHandler handler, StageSampledEvent event, String kind) {
        return call(handler, event.boundary(), kind, () -> handler.onStageSampled(event));
    }

    /** The handler's response; its error, or what it throws, fails the query naming the handler. */
    private static <R> R call(StageEventHandler handler, StageBoundary boundary, String kind, Supplier<R> respond) {
        try {
            R response = respond.get();
            if (response == null) {
                throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "it returned no response to the " + kind + " event (return unchanged() to change nothing)");
            }
            return response;
        } catch (QuiverException e) {
            throw failed(handler, boundary.describe(), e);
        } catch (RuntimeException e) {
            throw new QuiverException(ErrorCode.INTERNAL_ERROR, "stage-event handler " + handler.name() + " failed on the " + kind + " event of "
                    + boundary.describe() + ": " + e, e);
        }
    }

    /** The handler's error, its code kept and its message prefixed with who failed the query. */
    private static QuiverException failed(StageEventHandler handler, String boundary, QuiverException error) {
        return new QuiverException(error.errorCode(), "handler " + handler.name() + " failed the query at " + boundary + ": " + error.getMessage(), error);
    }
}
