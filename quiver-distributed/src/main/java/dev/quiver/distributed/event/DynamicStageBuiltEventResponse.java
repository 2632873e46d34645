package dev.quiver.distributed.event;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.ExecutionPlan;
import java.util.Optional;

/**
 * A handler's answer to a {@link DynamicStageBuiltEvent} (DESIGN §6): optionally a rewritten
 * producer plan (re-validated; it may not touch the producer head, which the boundary owns), an
 * advisory or exact consumer count, or an error that fails the query. Immutable; build it fluently:
 * <pre>{@code
 * DynamicStageBuiltEventResponse.rewritten(plan).withExactConsumerTasks(8)
 * DynamicStageBuiltEventResponse.unchanged().withDesiredConsumerTasks(4)
 * DynamicStageBuiltEventResponse.error(new QuiverException(ErrorCode.EXCEEDED_MEMORY_LIMIT, "..."))
 * }</pre>
 */
public record DynamicStageBuiltEventResponse(Optional<ExecutionPlan> rewrittenPlan, Optional<ConsumerTasks> consumerTasks, Optional<QuiverException> error) {
    public DynamicStageBuiltEventResponse {
        requireNonNull(rewrittenPlan, "rewrittenPlan is null");
        requireNonNull(consumerTasks, "consumerTasks is null");
        requireNonNull(error, "error is null");
        if (error.isPresent() && (rewrittenPlan.isPresent() || consumerTasks.isPresent())) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "a response that fails the query carries nothing else");
        }
    }

    /** Nothing to change. */
    public static DynamicStageBuiltEventResponse unchanged() {
        return new DynamicStageBuiltEventResponse(Optional.empty(), Optional.empty(), Optional.empty());
    }

    /** The producer rewritten to {@code plan} (same schema and inputs; no producer head). */
    public static DynamicStageBuiltEventResponse rewritten(ExecutionPlan plan) {
        return new DynamicStageBuiltEventResponse(Optional.of(requireNonNull(plan, "plan is null")), Optional.empty(), Optional.empty());
    }

    /** Fails the query with {@code error}. */
    public static DynamicStageBuiltEventResponse error(QuiverException error) {
        return new DynamicStageBuiltEventResponse(Optional.empty(), Optional.empty(), Optional.of(requireNonNull(error, "error is null")));
    }

    /** An advisory consumer count, merged with AQE's and other handlers' by taking the maximum. */
    public DynamicStageBuiltEventResponse withDesiredConsumerTasks(int tasks) {
        return withConsumerTasks(ConsumerTasks.desired(tasks));
    }

    /** Requires exactly {@code tasks} consumer tasks. */
    public DynamicStageBuiltEventResponse withExactConsumerTasks(int tasks) {
        return withConsumerTasks(ConsumerTasks.exact(tasks));
    }

    /** Requires exactly {@code tasks} consumer tasks of {@code partitionsPerConsumerTask} partitions each: the producer writes {@code P_c × tasks}. */
    public DynamicStageBuiltEventResponse withExactConsumerTasks(int tasks, int partitionsPerConsumerTask) {
        return withConsumerTasks(ConsumerTasks.exact(tasks, partitionsPerConsumerTask));
    }

    /**
     * This response with the consumer count {@code tasks}. A response carries one count: asking for
     * a second (an exact and then a desired one, say) fails with {@code INVALID_ARGUMENT} rather than
     * silently keeping one of them.
     */
    public DynamicStageBuiltEventResponse withConsumerTasks(ConsumerTasks tasks) {
        requireNonNull(tasks, "tasks is null");
        if (consumerTasks.isPresent()) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "a stage-built response carries one consumer count; it already has "
                    + consumerTasks.get() + ", so " + tasks + " cannot be added (an exact count overrides advisory ones: require only the exact one)");
        }
        return new DynamicStageBuiltEventResponse(rewrittenPlan, Optional.of(tasks), error);
    }
}
