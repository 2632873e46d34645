package dev.quiver.distributed.planner;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.aqe.CostModel;

/**
 * How a query with adaptive task counts (DESIGN §5, {@code distributed.dynamic_task_count=true}) is
 * planned at run time: the planner, its stage events (DESIGN §6),
 * {@code distributed.dynamic_bytes_per_partition} (the cost budget of one partition) and
 * {@code distributed.sample_bytes_per_partition} (each producer partition's sample budget). The
 * coordinator runs the {@link StagePlanningLoop} with {@link #statistics} over the samples of the
 * stages it dispatched.
 */
public record AdaptivePlanning(DistributedPlanner planner, StageEvents events, long dynamicBytesPerPartition, long sampleBytesPerPartition) {
    public AdaptivePlanning {
        requireNonNull(planner, "planner is null");
        requireNonNull(events, "events is null");
        if (dynamicBytesPerPartition < 1 || sampleBytesPerPartition < 1) {
            throw new IllegalArgumentException("distributed.dynamic_bytes_per_partition and distributed.sample_bytes_per_partition must be positive: "
                    + dynamicBytesPerPartition + ", " + sampleBytesPerPartition);
        }
    }

    /** Without stage-event handlers. */
    public static AdaptivePlanning of(DistributedPlanner planner, long dynamicBytesPerPartition, long sampleBytesPerPartition) {
        return new AdaptivePlanning(planner, StageEvents.none(), dynamicBytesPerPartition, sampleBytesPerPartition);
    }

    /** The statistics of the loop: each stage sized by its cost over {@code samples} of its inputs. */
    public SampledStageStatistics statistics(SampledStageStatistics.Samples samples) {
        return new SampledStageStatistics(planner.settings(), planner.estimators(), new CostModel(), dynamicBytesPerPartition, samples);
    }
}
