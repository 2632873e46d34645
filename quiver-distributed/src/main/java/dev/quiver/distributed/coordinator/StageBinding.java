package dev.quiver.distributed.coordinator;

import dev.quiver.distributed.operator.StageInputExec;
import dev.quiver.distributed.plan.DistributedPlan;
import dev.quiver.distributed.plan.Stage;
import dev.quiver.distributed.plan.StageOutput;
import dev.quiver.distributed.protocol.ProducerHead;
import dev.quiver.distributed.protocol.WorkerAddress;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.PlanTree;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Ties a stage's task plans to where their inputs run: binds every {@link StageInputExec} of a task
 * plan to the query, the consumer task and the producer tasks' workers, and finds the producer head
 * a stage's output must be bound to (from the consumer stage's input that reads it).
 */
final class StageBinding {
    private StageBinding() {}

    /**
     * {@code plan} with each {@link StageInputExec} bound for consumer task {@code taskIndex};
     * {@code producerWorkers} maps a producer stage id to its tasks' workers by task index.
     */
    static ExecutionPlan bind(ExecutionPlan plan, String queryId, int taskIndex, Map<Integer, List<WorkerAddress>> producerWorkers) {
        return replaceInputs(plan, input -> {
            List<WorkerAddress> workers = producerWorkers.get(input.producerStageId());
            if (workers == null) {
                throw new QuiverException(ErrorCode.PLAN_ERROR, "stage input reads stage " + input.producerStageId()
                        + ", which has not been dispatched before its consumer");
            }
            if (workers.size() != input.producerTasks()) {
                throw new QuiverException(ErrorCode.PLAN_ERROR, "stage input expects " + input.producerTasks() + " tasks of stage "
                        + input.producerStageId() + ", which runs " + workers.size());
            }
            return input.bind(queryId, taskIndex, workers);
        });
    }

    /** {@code plan} with each {@link StageInputExec} replaced by what {@code replace} makes of it; a subtree without one is kept as it is. */
    static ExecutionPlan replaceInputs(ExecutionPlan plan, Function<StageInputExec, ExecutionPlan> replace) {
        return PlanTree.rewrite(plan, node -> node instanceof StageInputExec input ? replace.apply(input) : node);
    }

    /** The head the tasks of {@code producer} are bound to: what the consumer stage's input from it expects. */
    static ProducerHead producerHead(DistributedPlan plan, Stage producer) {
        StageOutput output = producer.output().orElseThrow(() -> new QuiverException(ErrorCode.PLAN_ERROR,
                "stage " + producer.stageId() + " is the head stage; it has no producer head"));
        Stage consumer = plan.stage(output.consumerStageId());
        StageInputExec input = findInput(consumer.plan(), producer.stageId()).orElseThrow(() -> new QuiverException(ErrorCode.PLAN_ERROR,
                "stage " + consumer.stageId() + " has no input reading stage " + producer.stageId()));
        if (input.kind() != output.kind()) {
            throw new QuiverException(ErrorCode.PLAN_ERROR, "stage " + producer.stageId() + " feeds a " + output.kind()
                    + " boundary, but stage " + consumer.stageId() + " reads it as " + input.kind());
        }
        if (input.producerTasks() != producer.taskCount() || input.consumerTasks() != consumer.taskCount()) {
            throw new QuiverException(ErrorCode.PLAN_ERROR, "the input of stage " + consumer.stageId() + " from stage " + producer.stageId()
                    + " expects " + input.producerTasks() + " → " + input.consumerTasks() + " tasks; the stages have "
                    + producer.taskCount() + " → " + consumer.taskCount());
        }
        return input.producerHead();
    }

    static Optional<StageInputExec> findInput(ExecutionPlan plan, int producerStageId) {
        return PlanTree.first(plan, node -> node instanceof StageInputExec input && input.producerStageId() == producerStageId)
                .map(StageInputExec.class::cast);
    }
}
