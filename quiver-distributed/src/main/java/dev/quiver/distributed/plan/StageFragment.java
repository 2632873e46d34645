package dev.quiver.distributed.plan;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.operator.BoundaryKind;
import dev.quiver.distributed.planner.DistributedPlanner;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.expr.PhysicalExpr;
import java.util.List;
import java.util.Optional;

/**
 * A stage as cut from the single-node plan, before it is sized: its plan with
 * {@link dev.quiver.distributed.operator.StageInputExec} leaves whose counts are not set yet (one
 * producer task, one consumer task), the hints its nodes give (e.g. {@code Exact(1)} from a
 * coalesce or a join that cannot split), and where its output goes. {@link DistributedPlanner#cut}
 * makes them; {@link DistributedPlanner#size} turns one into a {@link Stage} once the stages it
 * reads are sized, statically or, with AQE, from their samples.
 *
 * @param outputKind the boundary above this stage; empty for the head stage
 * @param outputKeys a shuffle's hash keys over this stage's schema (else empty)
 * @param shufflePartitionsPerConsumerTask a shuffle's {@code P_c} (else 0: a coalesce or broadcast reads all {@code T_p × P_p})
 * @param consumerStageId the stage reading this one; -1 for the head stage
 * @param inputStageIds the stages this one reads, in the order its inputs appear in the plan
 */
public record StageFragment(int stageId, ExecutionPlan plan, List<TaskCountHint> nodeHints, Optional<BoundaryKind> outputKind, List<PhysicalExpr> outputKeys,
        int shufflePartitionsPerConsumerTask, int consumerStageId, List<Integer> inputStageIds) {
    public StageFragment {
        requireNonNull(plan, "plan is null");
        nodeHints = List.copyOf(requireNonNull(nodeHints, "nodeHints is null"));
        requireNonNull(outputKind, "outputKind is null");
        outputKeys = List.copyOf(requireNonNull(outputKeys, "outputKeys is null"));
        inputStageIds = List.copyOf(requireNonNull(inputStageIds, "inputStageIds is null"));
        if (outputKind.isPresent() != consumerStageId >= 0) {
            throw new IllegalArgumentException("stage " + stageId + ": only the head stage has no output and no consumer");
        }
    }

    public boolean isHead() {
        return outputKind.isEmpty();
    }

    /** This fragment with another plan (a handler's rewrite, or inputs read with other counts or statistics). */
    public StageFragment withPlan(ExecutionPlan newPlan) {
        return new StageFragment(stageId, newPlan, nodeHints, outputKind, outputKeys, shufflePartitionsPerConsumerTask, consumerStageId, inputStageIds);
    }

    /** This fragment with its shuffle output's {@code P_c} set to {@code partitions}. */
    public StageFragment withShufflePartitionsPerConsumerTask(int partitions) {
        return new StageFragment(stageId, plan, nodeHints, outputKind, outputKeys, partitions, consumerStageId, inputStageIds);
    }
}
