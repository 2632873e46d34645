package dev.quiver.distributed.planner;

import dev.quiver.distributed.event.StageBoundary;
import dev.quiver.distributed.operator.SamplerExec;
import dev.quiver.distributed.operator.StageInputExec;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.execution.PlanTree;
import dev.quiver.engine.operator.exchange.RepartitionExec;
import java.util.List;

/**
 * Re-validates a producer plan a handler rewrote (DESIGN §6): the same schema (the boundary's keys
 * and the consumer's input are over it), the same stage inputs in the same order (kind, keys,
 * schema), and no producer head: the top hash repartition and the sampler belong to the boundary
 * and are added by the coordinator when it binds the head, so a plan that brings its own would
 * partition twice or disagree with the {@code P_c × T_c} the consumer reads.
 */
final class ProducerRewriteCheck {
    private ProducerRewriteCheck() {}

    static void check(String handler, StageBoundary boundary, ExecutionPlan before, ExecutionPlan after) {
        String who = "handler " + handler + " rewrote the producer of " + boundary.describe();
        if (!after.schema().equals(before.schema())) {
            throw new QuiverException(ErrorCode.PLAN_ERROR, who + " with another schema: " + after.schema() + " instead of " + before.schema()
                    + "; a rewrite must keep the producer's output columns");
        }
        if (touchesHead(after) && !touchesHead(before)) {
            throw new QuiverException(ErrorCode.PLAN_ERROR, who + " with its own producer head (" + after.displayLine()
                    + "); the head belongs to the boundary, which binds Hash(keys, P_c × T_c) once the consumer is sized");
        }
        if (containsSampler(after)) {
            throw new QuiverException(ErrorCode.PLAN_ERROR, who + " with a SamplerExec; the coordinator places the sampler under the producer head");
        }
        List<StageInputExec> inputsBefore = inputs(before);
        List<StageInputExec> inputsAfter = inputs(after);
        if (!sameInputs(inputsBefore, inputsAfter)) {
            throw new QuiverException(ErrorCode.PLAN_ERROR, who + " reading other stage inputs: " + describe(inputsAfter) + " instead of "
                    + describe(inputsBefore) + "; a rewrite may not change which stages a producer reads or how");
        }
    }

    private static boolean touchesHead(ExecutionPlan root) {
        return root instanceof RepartitionExec repartition && repartition.outputPartitioning() instanceof Partitioning.Hash;
    }

    private static boolean containsSampler(ExecutionPlan plan) {
        return PlanTree.anyMatch(plan, SamplerExec.class::isInstance);
    }

    private static boolean sameInputs(List<StageInputExec> before, List<StageInputExec> after) {
        if (before.size() != after.size()) {
            return false;
        }
        for (int i = 0; i < before.size(); i++) {
            StageInputExec a = before.get(i);
            StageInputExec b = after.get(i);
            boolean same = a.producerStageId() == b.producerStageId() && a.kind() == b.kind() && a.schema().equals(b.schema())
                    && a.keys().equals(b.keys()) && a.producerTasks() == b.producerTasks() && a.producerPartitions() == b.producerPartitions()
                    && a.consumerTasks() == b.consumerTasks() && a.partitionsPerConsumerTask() == b.partitionsPerConsumerTask();
            if (!same) {
                return false;
            }
        }
        return true;
    }

    private static String describe(List<StageInputExec> inputs) {
        return inputs.stream().map(input -> input.kind() + " from stage " + input.producerStageId()).toList().toString();
    }

    private static List<StageInputExec> inputs(ExecutionPlan plan) {
        return PlanTree.nodesOf(plan, StageInputExec.class);
    }
}
