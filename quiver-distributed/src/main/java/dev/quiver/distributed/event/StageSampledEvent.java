package dev.quiver.distributed.event;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.aqe.SampledStatistics;
import dev.quiver.engine.execution.ExecutionPlan;
import java.util.OptionalInt;

/**
 * Fires in adaptive mode once a producer stage is sampled (DESIGN §5 step 5), before its consumer
 * is sized. The producer is already running, so a handler may only set the consumer count
 * (advisory or exact) or fail the query; the late-bound producer head keeps {@code P_c × n}
 * consistent whatever n it picks.
 *
 * @param producerPlan the producer's plan as it runs, without its head
 * @param producerTasks the producer's task count {@code T_p}
 * @param sampled the producer's output extrapolated from its samples, including the distinct
 *     hash-key tuples from the head's key sketch
 * @param exactConsumerTasks the exact consumer count the stage-built event left at this boundary,
 *     if any: it was validated before the producer was dispatched, so a response may confirm or
 *     raise it but not lower it or make it advisory (that fails the query naming both events)
 */
public record StageSampledEvent(StageBoundary boundary, ExecutionPlan producerPlan, int producerTasks, SampledStatistics sampled,
        OptionalInt exactConsumerTasks) {
    public StageSampledEvent {
        requireNonNull(boundary, "boundary is null");
        requireNonNull(producerPlan, "producerPlan is null");
        requireNonNull(sampled, "sampled is null");
        requireNonNull(exactConsumerTasks, "exactConsumerTasks is null");
        if (producerTasks < 1) {
            throw new IllegalArgumentException("a producer runs at least one task: " + producerTasks);
        }
    }

    /** A sampled event at a boundary without an exact count. */
    public StageSampledEvent(StageBoundary boundary, ExecutionPlan producerPlan, int producerTasks, SampledStatistics sampled) {
        this(boundary, producerPlan, producerTasks, sampled, OptionalInt.empty());
    }
}
