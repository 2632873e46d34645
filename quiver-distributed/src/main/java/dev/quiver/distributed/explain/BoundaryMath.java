package dev.quiver.distributed.explain;

import dev.quiver.distributed.operator.StageInputExec;
import dev.quiver.distributed.plan.DistributedPlan;
import dev.quiver.distributed.plan.Stage;
import dev.quiver.distributed.plan.StageOutput;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.memory.ByteSize;
import dev.quiver.engine.stats.Estimate;
import dev.quiver.engine.stats.Statistics;
import java.util.Optional;
import java.util.stream.Collectors;

/** How a stage's output boundary reads, with its partition math, in the words of DESIGN §4. */
final class BoundaryMath {
    private BoundaryMath() {}

    /**
     * E.g. {@code shuffle to stage 2: 3 tasks × Hash([k], 6) → consumer task t reads [2t, 2t+2)},
     * {@code coalesce to stage 3: 4 tasks × 3 partitions → 1 consumer task reads all 12},
     * {@code broadcast to stage 1: 2 tasks × 3 partitions → each of 4 consumer tasks reads all 6}.
     */
    static String describe(DistributedPlan plan, Stage producer) {
        StageOutput output = producer.output().orElseThrow();
        Stage consumer = plan.stage(output.consumerStageId());
        int producerTasks = producer.taskCount();
        int partitions = producer.partitionsPerTask();
        return switch (output.kind()) {
            case SHUFFLE -> {
                int pc = output.partitionsPerConsumerTask();
                String keys = output.keys().stream().map(PhysicalExpr::display).collect(Collectors.joining(", "));
                yield "shuffle to stage " + consumer.stageId() + ": " + producerTasks + " tasks × Hash([" + keys + "], " + pc * consumer.taskCount()
                        + ") → consumer task t reads [" + linear(pc, 0) + ", " + linear(pc, pc) + ")";
            }
            case COALESCE -> "coalesce to stage " + consumer.stageId() + ": " + producerTasks + " tasks × " + partitions
                    + " partitions → 1 consumer task reads all " + producerTasks * partitions;
            case BROADCAST -> "broadcast to stage " + consumer.stageId() + ": " + producerTasks + " tasks × " + partitions
                    + " partitions → each of " + consumer.taskCount() + " consumer tasks reads all " + producerTasks * partitions;
        };
    }

    /**
     * What the planner estimated of the stage's whole output (from its consumer's input), e.g.
     * {@code estimated output: rows=~6000, bytes=~48.0 KiB}; empty for the head stage.
     */
    static Optional<String> estimate(DistributedPlan plan, Stage producer) {
        if (producer.isHead()) {
            return Optional.empty();
        }
        Stage consumer = plan.stage(producer.output().orElseThrow().consumerStageId());
        return inputOf(consumer.plan(), producer.stageId()).map(input -> {
            Statistics statistics = input.statistics();
            Estimate bytes = statistics.totalBytes();
            return "estimated output: rows=" + statistics.rowCount() + ", bytes="
                    + (bytes.isKnown() ? (bytes.isExact() ? "" : "~") + ByteSize.formatBytes(bytes.value()) : "?");
        });
    }

    private static Optional<StageInputExec> inputOf(ExecutionPlan plan, int producerStageId) {
        if (plan instanceof StageInputExec input && input.producerStageId() == producerStageId) {
            return Optional.of(input);
        }
        return plan.children().stream().map(child -> inputOf(child, producerStageId)).flatMap(Optional::stream).findFirst();
    }

    /** {@code a·t + b} as written in the partition math: {@code 2t}, {@code t+1}, {@code 2t+2}. */
    private static String linear(int a, int b) {
        String t = a == 1 ? "t" : a + "t";
        return b == 0 ? t : t + "+" + b;
    }
}
