package dev.quiver.distributed.event;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.aqe.StageCost;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.stats.Statistics;
import java.util.Map;

/**
 * Fires for every stage that feeds a shuffle or broadcast, once the stage is sized and before it is
 * dispatched, in static and adaptive planning (DESIGN §6). Handlers run in registration order; each
 * sees the producer plan as the previous handler's response left it.
 *
 * @param boundary the boundary above the producer, the consumer fragment and the cluster
 * @param producerPlan the producer stage's plan (task 0's variant), without the producer head,
 *     which the boundary owns
 * @param producerTasks the producer's task count {@code T_p}
 * @param producerCost the producer's cost and estimated output ({@link dev.quiver.distributed.aqe.CostModel})
 * @param inputStatistics the statistics of the producer's stage inputs by producer stage id
 *     (sampled in adaptive mode, estimated in static mode); empty when it reads only sources
 */
public record DynamicStageBuiltEvent(StageBoundary boundary, ExecutionPlan producerPlan, int producerTasks, StageCost producerCost,
        Map<Integer, Statistics> inputStatistics) {
    public DynamicStageBuiltEvent {
        requireNonNull(boundary, "boundary is null");
        requireNonNull(producerPlan, "producerPlan is null");
        requireNonNull(producerCost, "producerCost is null");
        inputStatistics = Map.copyOf(requireNonNull(inputStatistics, "inputStatistics is null"));
        if (producerTasks < 1) {
            throw new IllegalArgumentException("a producer runs at least one task: " + producerTasks);
        }
    }

    /** This event as the next handler sees it after a rewrite. */
    public DynamicStageBuiltEvent withProducerPlan(ExecutionPlan plan) {
        return new DynamicStageBuiltEvent(boundary, plan, producerTasks, producerCost, inputStatistics);
    }
}
