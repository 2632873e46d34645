package dev.quiver.distributed.planner;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.aqe.CostModel;
import dev.quiver.distributed.config.DistributedSettings;

/**
 * How a query with adaptive task counts (DESIGN §5, {@code distributed.dynamic_task_count=true}) is
 * planned at run time: the planner (whose settings hold {@code distributed.dynamic_bytes_per_partition},
 * the cost budget of one partition, and {@code distributed.sample_bytes_per_partition}, each producer
 * partition's sample budget) and its stage events (DESIGN §6). The coordinator runs the
 * {@link StagePlanningLoop} with {@link #statistics} over the samples of the stages it dispatched.
 */
public record AdaptivePlanning(DistributedPlanner planner, StageEvents events) {
    public AdaptivePlanning {
        requireNonNull(planner, "planner is null");
        requireNonNull(events, "events is null");
    }

    /** Without stage-event handlers. */
    public static AdaptivePlanning of(DistributedPlanner planner) {
        return new AdaptivePlanning(planner, StageEvents.none());
    }

    /** {@code distributed.dynamic_bytes_per_partition}. */
    public long dynamicBytesPerPartition() {
        return planner.settings().settings().get(DistributedSettings.DYNAMIC_BYTES_PER_PARTITION);
    }

    /** {@code distributed.sample_bytes_per_partition}. */
    public long sampleBytesPerPartition() {
        return planner.settings().settings().get(DistributedSettings.SAMPLE_BYTES_PER_PARTITION);
    }

    /** The statistics of the loop: each stage sized by its cost over {@code samples} of its inputs. */
    public SampledStageStatistics statistics(SampledStageStatistics.Samples samples) {
        return new SampledStageStatistics(planner.settings(), planner.estimators(), new CostModel(), dynamicBytesPerPartition(), samples);
    }
}
