package dev.quiver.distributed.planner;

import dev.quiver.distributed.aqe.SampledStatistics;
import dev.quiver.distributed.plan.Stage;
import dev.quiver.distributed.plan.StageFragment;
import java.util.List;

/**
 * Where the adaptive loop (the coordinator's {@code AdaptiveStageLoop}) hands its stages to stage-event handlers
 * (DESIGN §6): step 3 of DESIGN §5, after a producer stage is sized and before it is dispatched;
 * after a producer's sample is complete, before its consumer is sized; and when a stage closes,
 * before it is sized, so that a {@code P_c} a handler chose for one of its input boundaries becomes
 * the stage's {@code P}. All run on the loop's thread; an exception fails the query. The consumer
 * counts the handlers ask for come back to the loop as hints, through
 * {@link AdaptivePlanning#stageHints()}.
 */
public interface AdaptiveStageEvents {
    /**
     * A sized stage that is not the head stage, before anything of it is dispatched.
     *
     * @param fragments every fragment of the query, as the planner cut them
     * @return {@code fragment} when it is unchanged, else the rewritten fragment (a new plan, or its
     *     output's {@code P_c}) the loop sizes again
     */
    StageFragment onStageSized(StageFragment fragment, List<StageFragment> fragments, Stage stage);

    /** {@code producer}'s sample is complete; its consumer has not been sized yet. */
    void onStageSampled(Stage producer, SampledStatistics statistics);

    /**
     * Every input of {@code fragment} is sampled and it is about to be sized: returns it with each
     * shuffle input read with the {@code P_c} decided at that boundary (the fragment itself when
     * nothing was decided).
     */
    default StageFragment onStageClosed(StageFragment fragment) {
        return fragment;
    }

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
