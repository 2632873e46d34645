package dev.quiver.distributed.plan;

import dev.quiver.engine.execution.ExecutionPlan;
import java.util.List;

/**
 * Task-count hints for a stage from outside its plan: the consumer counts that stage-event
 * handlers ask for (DESIGN §6, {@code Desired(n)} or {@code withExactConsumerTasks(n)}), or a
 * session's override. The planner merges them with the stage's own hints by the same rules, so an
 * exact count from a handler overrides every advisory one, and two different exact counts fail
 * naming both origins.
 */
@FunctionalInterface
public interface StageHintSource {
    /**
     * Hints for stage {@code stageId}, asked just before it is sized.
     *
     * @param plan the stage plan, its inputs not yet sized
     * @param producers the stages sized so far (every stage this one reads is among them)
     */
    List<TaskCountHint> hints(int stageId, ExecutionPlan plan, List<Stage> producers);

    static StageHintSource none() {
        return (stageId, plan, producers) -> List.of();
    }
}
