package dev.quiver.distributed.coordinator;

import dev.quiver.distributed.aqe.SampledStatistics;
import dev.quiver.distributed.aqe.StageCost;
import dev.quiver.distributed.plan.Stage;
import dev.quiver.distributed.plan.StageFragment;
import dev.quiver.distributed.plan.TaskCountHint;
import java.util.List;

/**
 * Where the stage events of DESIGN §6 (issue 6) plug into the adaptive loop
 * ({@link AdaptiveStageLoop}); every method has a no-op default. Called on the thread that runs the
 * loop, in stage order, except {@link #onStageSampled}, which a transport thread calls as soon as
 * the producer's samples are enough (before its consumer is sized).
 */
public interface AdaptiveStageHook {
    /** No handlers. */
    AdaptiveStageHook NONE = new AdaptiveStageHook() {};

    /**
     * Extra hints for a stage about to be sized (e.g. the consumer counts handlers required at the
     * boundaries it reads, Desired or Exact with their origins); merged with the cost's and the
     * nodes' hints by the hint rules.
     */
    default List<TaskCountHint> hints(StageFragment fragment, List<Stage> producers) {
        return List.of();
    }

    /**
     * DESIGN §5 step 3, the stage-built event: {@code sized} (from {@code fragment}, costing
     * {@code cost}) is about to be dispatched. Returns the fragment to run: {@code fragment} itself,
     * or a rewritten producer plan, which the loop re-costs and re-sizes (the producer head is the
     * boundary's and is not part of it). {@code fragments} is the loop's list of every stage's
     * fragment, producers first; a hook may replace the consumer's entry (e.g. its {@code P_c}) before
     * the consumer is sized. Throwing fails the query before anything of this stage is dispatched.
     */
    default StageFragment onStageBuilt(StageFragment fragment, Stage sized, StageCost cost, List<StageFragment> fragments) {
        return fragment;
    }

    /** The producer stage's samples are in ({@code StageSampledEvent}); hints for its consumer go through {@link #hints}. */
    default void onStageSampled(Stage producer, SampledStatistics statistics) {}
}
