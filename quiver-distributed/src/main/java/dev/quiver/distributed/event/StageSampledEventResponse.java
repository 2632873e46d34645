package dev.quiver.distributed.event;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.util.Optional;

/**
 * A handler's answer to a {@link StageSampledEvent}: the producer already runs, so it may only set
 * the consumer count (advisory or exact, without a new {@code P_c}) or fail the query.
 */
public record StageSampledEventResponse(Optional<ConsumerTasks> consumerTasks, Optional<QuiverException> error) {
    public StageSampledEventResponse {
        requireNonNull(consumerTasks, "consumerTasks is null");
        requireNonNull(error, "error is null");
        if (error.isPresent() && consumerTasks.isPresent()) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "a response that fails the query carries nothing else");
        }
        if (consumerTasks.isPresent() && consumerTasks.get().partitionsPerConsumerTask().isPresent()) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "after sampling the consumer's P_c is fixed; only its task count may be set, not "
                    + consumerTasks.get());
        }
    }

    public static StageSampledEventResponse unchanged() {
        return new StageSampledEventResponse(Optional.empty(), Optional.empty());
    }

    public static StageSampledEventResponse desiredConsumerTasks(int tasks) {
        return new StageSampledEventResponse(Optional.of(ConsumerTasks.desired(tasks)), Optional.empty());
    }

    public static StageSampledEventResponse exactConsumerTasks(int tasks) {
        return new StageSampledEventResponse(Optional.of(ConsumerTasks.exact(tasks)), Optional.empty());
    }

    public static StageSampledEventResponse error(QuiverException error) {
        return new StageSampledEventResponse(Optional.empty(), Optional.of(requireNonNull(error, "error is null")));
    }
}
