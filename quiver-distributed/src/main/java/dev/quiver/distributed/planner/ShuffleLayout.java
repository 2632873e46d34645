package dev.quiver.distributed.planner;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.operator.BoundaryKind;
import dev.quiver.distributed.operator.StageInputExec;
import dev.quiver.distributed.plan.Stage;
import dev.quiver.distributed.plan.StageFragment;
import dev.quiver.distributed.plan.StageOutput;
import dev.quiver.distributed.protocol.ProducerHead;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.PlanTree;
import dev.quiver.engine.expr.PhysicalExpr;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The counts of a shuffle boundary once its consumer count is decided (DESIGN §4, §6): producer
 * tasks write {@code P_c × T_c} hash partitions on {@code keys}, and consumer task t reads
 * {@code [P_c·t, P_c·t + P_c)} of every producer task. A {@code P_c} a handler sets goes through
 * here into both sides of the boundary: the producer's {@link StageOutput}
 * ({@link #producerStage}) and the consumer's shuffle inputs ({@link #withInputPartitions}, before
 * the consumer is sized, which sets their {@code T_c}); the coordinator then binds the producer head
 * from the consumer's input ({@link StageInputExec#producerHead()}), which equals
 * {@link #producerHead()}.
 *
 * @param producerStageId the producer stage
 * @param keys the hash keys over the producer's schema
 * @param producerTasks {@code T_p}
 * @param producerPartitions {@code P_p}
 * @param consumerTasks {@code T_c} (n of an exact requirement)
 * @param partitionsPerConsumerTask {@code P_c}
 */
public record ShuffleLayout(int producerStageId, List<PhysicalExpr> keys, int producerTasks, int producerPartitions, int consumerTasks,
        int partitionsPerConsumerTask) {
    public ShuffleLayout {
        keys = List.copyOf(requireNonNull(keys, "keys is null"));
        if (keys.isEmpty() || producerTasks < 1 || producerPartitions < 1 || consumerTasks < 1 || partitionsPerConsumerTask < 1) {
            throw new IllegalArgumentException("a shuffle needs keys and counts of at least 1: " + keys + ", " + producerTasks + ", " + producerPartitions
                    + ", " + consumerTasks + ", " + partitionsPerConsumerTask);
        }
    }

    /** The layout of {@code producer}'s shuffle for {@code consumerTasks} consumer tasks of {@code P_c} from {@code requirements} (override or planned). */
    public static ShuffleLayout of(Stage producer, int consumerTasks, BoundaryRequirements requirements) {
        StageOutput output = producer.output().filter(out -> out.kind() == BoundaryKind.SHUFFLE)
                .orElseThrow(() -> new IllegalArgumentException("stage " + producer.stageId() + " does not feed a shuffle"));
        requirements.exact().ifPresent(exact -> {
            if (exact.taskCount() != consumerTasks) {
                throw new QuiverException(ErrorCode.TASK_COUNT_CONFLICT, "the consumer of stage " + producer.stageId() + " was sized to "
                        + consumerTasks + " tasks, but " + exact.origin() + " requires exactly " + exact.taskCount());
            }
        });
        int partitions = requirements.partitionsPerConsumerTask().orElse(output.partitionsPerConsumerTask());
        return new ShuffleLayout(producer.stageId(), output.keys(), producer.taskCount(), producer.partitionsPerTask(), consumerTasks, partitions);
    }

    /** The head every producer task is bound to: {@code Hash(keys, P_c × T_c)}. */
    public ProducerHead.Shuffle producerHead() {
        return new ProducerHead.Shuffle(keys, partitionsPerConsumerTask, consumerTasks);
    }

    /** The producer stage with its output's {@code P_c} set to this layout's. */
    public Stage producerStage(Stage producer) {
        StageOutput output = producer.output().orElseThrow();
        if (producer.stageId() != producerStageId) {
            throw new IllegalArgumentException("stage " + producer.stageId() + " is not stage " + producerStageId);
        }
        return new Stage(producer.stageId(), producer.taskPlans(), producer.partitionsPerTask(), producer.taskCountHint(),
                Optional.of(new StageOutput(output.kind(), output.consumerStageId(), output.keys(), partitionsPerConsumerTask)),
                producer.inputStageIds());
    }

    /**
     * The consumer's fragment reading this shuffle with this layout's {@code P_c}, before it is sized
     * (the sizer keeps a shuffle input's {@code P_c}, and the stage's {@code P} follows it). Whether
     * the consumer's other shuffle inputs agree is {@code ConsumerRequirements}' to say, once their
     * boundaries are decided; a consumer with several shuffle inputs (a partitioned join, whose
     * inputs must match at every step) takes them together with {@link #withInputPartitions}.
     */
    public StageFragment consumerFragment(StageFragment consumer) {
        return withInputPartitions(consumer, Map.of(producerStageId, partitionsPerConsumerTask));
    }

    /** {@code consumer} with each shuffle input from a producer in {@code partitions} read with that {@code P_c}. */
    public static StageFragment withInputPartitions(StageFragment consumer, Map<Integer, Integer> partitions) {
        requireNonNull(consumer, "consumer is null");
        requireNonNull(partitions, "partitions is null");
        ExecutionPlan plan = replaceInputs(consumer.plan(), partitions);
        if (plan == consumer.plan()) {
            return consumer;
        }
        return consumer.withPlan(plan);
    }

    private static ExecutionPlan replaceInputs(ExecutionPlan plan, Map<Integer, Integer> partitions) {
        return PlanTree.rewrite(plan, node -> {
            if (!(node instanceof StageInputExec input)) {
                return node;
            }
            Integer pc = input.kind() == BoundaryKind.SHUFFLE ? partitions.get(input.producerStageId()) : null;
            return pc != null && input.partitionsPerConsumerTask() != pc
                    ? input.withCounts(input.producerTasks(), input.producerPartitions(), input.consumerTasks(), pc)
                    : input;
        });
    }
}
