package dev.quiver.distributed.plan;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.execution.ExecutionPlan;
import java.util.List;

/**
 * A query split into stages: {@code stages} in an order where every stage comes after the stages it
 * reads, the head stage last. {@code singleNodePlan} is the plan it was split from.
 */
public record DistributedPlan(ExecutionPlan singleNodePlan, List<Stage> stages) {
    public DistributedPlan {
        requireNonNull(singleNodePlan, "singleNodePlan is null");
        stages = List.copyOf(requireNonNull(stages, "stages is null"));
        if (stages.isEmpty() || !stages.get(stages.size() - 1).isHead()) {
            throw new IllegalArgumentException("a distributed plan ends with its head stage");
        }
        for (int i = 0; i < stages.size() - 1; i++) {
            if (stages.get(i).isHead()) {
                throw new IllegalArgumentException("only the last stage is the head stage; stage " + stages.get(i).stageId() + " is not last");
            }
        }
    }

    public Stage headStage() {
        return stages.get(stages.size() - 1);
    }

    public Stage stage(int stageId) {
        return stages.stream().filter(s -> s.stageId() == stageId).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no stage " + stageId));
    }
}
