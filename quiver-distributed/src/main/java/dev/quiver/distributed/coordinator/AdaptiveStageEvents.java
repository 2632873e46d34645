package dev.quiver.distributed.coordinator;

import dev.quiver.distributed.aqe.SampledStatistics;
import dev.quiver.distributed.plan.Stage;
import dev.quiver.distributed.plan.StageFragment;
import java.util.List;

/**
 * Where the adaptive loop ({@link AdaptiveStageLoop}) hands its stages to stage-event handlers
 * (DESIGN §6): step 3 of DESIGN §5, after a producer stage is sized and before it is dispatched,
 * and after a producer's sample is complete, before its consumer is sized. Both run on the loop's
 * thread; an exception fails the query. The consumer counts the handlers ask for come back to the
 * loop as hints, through {@link AdaptivePlanning#stageHints()}.
 */
public interface AdaptiveStageEvents {
    /**
     * A sized stage that is not the head stage, before anything of it is dispatched.
     *
     * @param fragments every fragment of the query, as the planner cut them
     * @return {@code fragment} when it is unchanged, else the rewritten fragment the loop sizes again
     */
    StageFragment onStageSized(StageFragment fragment, List<StageFragment> fragments, Stage stage);

    /** {@code producer}'s sample is complete; its consumer has not been sized yet. */
    void onStageSampled(Stage producer, SampledStatistics statistics);

    static AdaptiveStageEvents none() {
        return new AdaptiveStageEvents() {
            @Override
            public StageFragment onStageSized(StageFragment fragment, List<StageFragment> fragments, Stage stage) {
                return fragment;
            }

            @Override
            public void onStageSampled(Stage producer, SampledStatistics statistics) {}
        };
    }
}
