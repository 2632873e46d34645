package dev.quiver.distributed.planner;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.aqe.CostModel;
import dev.quiver.distributed.config.DistributedSettings;
import dev.quiver.distributed.plan.StageHintSource;

/**
 * What a query with adaptive task counts (DESIGN §5, {@code distributed.dynamic_task_count=true})
 * is planned with at run time: the planner that cuts and sizes its stages (and whose settings hold
 * {@code distributed.dynamic_bytes_per_partition}, the cost budget of one partition, and
 * {@code distributed.sample_bytes_per_partition}, each producer partition's sample budget), the cost
 * model, the extra hints of a stage (the hook where the stage-built events of DESIGN §6 plug in:
 * handlers' consumer counts arrive as hints and merge by the hint rules), and the
 * {@link AdaptiveStageEvents} that fire those events.
 */
public record AdaptivePlanning(DistributedPlanner planner, CostModel costModel, StageHintSource stageHints, AdaptiveStageEvents stageEvents) {
    public AdaptivePlanning {
        requireNonNull(planner, "planner is null");
        requireNonNull(costModel, "costModel is null");
        requireNonNull(stageHints, "stageHints is null");
        requireNonNull(stageEvents, "stageEvents is null");
    }

    /** The built-in cost model and no stage-event handlers. */
    public static AdaptivePlanning of(DistributedPlanner planner) {
        return new AdaptivePlanning(planner, new CostModel(), StageHintSource.none(), AdaptiveStageEvents.none());
    }

    /** With stage-event handlers: {@code events} sees every stage, and its consumer counts arrive as {@code hints}. */
    public AdaptivePlanning withStageEvents(AdaptiveStageEvents events, StageHintSource hints) {
        return new AdaptivePlanning(planner, costModel, hints, events);
    }

    /** {@code distributed.dynamic_bytes_per_partition}. */
    public long dynamicBytesPerPartition() {
        return planner.settings().settings().get(DistributedSettings.DYNAMIC_BYTES_PER_PARTITION);
    }

    /** {@code distributed.sample_bytes_per_partition}. */
    public long sampleBytesPerPartition() {
        return planner.settings().settings().get(DistributedSettings.SAMPLE_BYTES_PER_PARTITION);
    }
}
