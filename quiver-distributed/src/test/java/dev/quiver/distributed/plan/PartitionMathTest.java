package dev.quiver.distributed.plan;

import static dev.quiver.distributed.plan.PlanBuilders.coalesce;
import static dev.quiver.distributed.plan.PlanBuilders.collectLeft;
import static dev.quiver.distributed.plan.PlanBuilders.distinct;
import static dev.quiver.distributed.plan.PlanBuilders.fanOut;
import static dev.quiver.distributed.plan.PlanBuilders.table;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.distributed.operator.RemotePartition;
import dev.quiver.distributed.operator.StageInputExec;
import dev.quiver.distributed.planner.DistributedPlanner;
import dev.quiver.distributed.protocol.ProducerHead;
import dev.quiver.distributed.protocol.WorkerAddress;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.operator.join.HashJoinExec;
import dev.quiver.engine.operator.join.JoinType;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Which producer partitions each consumer task reads, for the inputs the planner makes. */
class PartitionMathTest {
    private static final List<WorkerAddress> WORKERS = List.of(new WorkerAddress("w0", 1), new WorkerAddress("w1", 2), new WorkerAddress("w2", 3));

    @Test
    void shuffleConsumerTaskTReadsPartitionsPcTimesTToPcTimesTPlusPcOfEveryProducerTask() {
        // 3 producer tasks × 2 partitions; the consumer: 3 tasks × P_c = 2, so the producer head is Hash(6)
        DistributedPlan plan = new DistributedPlanner(fanOut(3, 2)).plan(coalesce(distinct(table(60, 2), "k", 2)));
        StageInputExec shuffle = (StageInputExec) plan.stage(1).plan().children().get(0);
        assertThat(shuffle.producerHead()).isEqualTo(new ProducerHead.Shuffle(shuffle.keys(), 2, 3));
        assertThat(shuffle.producerHead().outputPartitions(2)).isEqualTo(6);
        assertThat(reads(shuffle.bind("q", 0, WORKERS), 0)).containsExactly("w0 s0.t0 p0", "w1 s0.t1 p0", "w2 s0.t2 p0");
        assertThat(reads(shuffle.bind("q", 0, WORKERS), 1)).containsExactly("w0 s0.t0 p1", "w1 s0.t1 p1", "w2 s0.t2 p1");
        assertThat(reads(shuffle.bind("q", 2, WORKERS), 0)).containsExactly("w0 s0.t0 p4", "w1 s0.t1 p4", "w2 s0.t2 p4");
        assertThat(reads(shuffle.bind("q", 2, WORKERS), 1)).containsExactly("w0 s0.t0 p5", "w1 s0.t1 p5", "w2 s0.t2 p5");
    }

    @Test
    void coalesceReadsEveryPartitionOfEveryProducerTaskOnce() {
        DistributedPlan plan = new DistributedPlanner(fanOut(3, 2)).plan(coalesce(table(60, 2)));
        StageInputExec gather = (StageInputExec) plan.headStage().plan().children().get(0);
        assertThat(gather.outputPartitioning().partitionCount()).isEqualTo(6);
        StageInputExec bound = gather.bind("q", 0, WORKERS);
        List<String> all = new ArrayList<>();
        IntStream.range(0, 6).forEach(q -> all.addAll(reads(bound, q)));
        assertThat(all).containsExactly("w0 s0.t0 p0", "w0 s0.t0 p1", "w1 s0.t1 p0", "w1 s0.t1 p1", "w2 s0.t2 p0", "w2 s0.t2 p1");
    }

    @Test
    void broadcastReplaysEveryProducerPartitionToEveryConsumerTask() {
        DistributedPlan plan = new DistributedPlanner(fanOut(3, 2)).plan(coalesce(collectLeft(table(30, 2), table(90, 2), JoinType.INNER)));
        StageInputExec build = (StageInputExec) ((HashJoinExec) plan.stage(1).plan()).left();
        assertThat(build.producerHead()).isEqualTo(new ProducerHead.Broadcast(3));
        for (int task = 0; task < 3; task++) {
            StageInputExec bound = build.bind("q", task, WORKERS);
            List<String> all = new ArrayList<>();
            IntStream.range(0, 6).forEach(q -> all.addAll(reads(bound, q)));
            assertThat(all).as("consumer task " + task)
                    .containsExactly("w0 s0.t0 p0", "w0 s0.t0 p1", "w1 s0.t1 p0", "w1 s0.t1 p1", "w2 s0.t2 p0", "w2 s0.t2 p1");
            int consumer = task;
            assertThat(bound.sourcesOf(0)).allSatisfy(source -> assertThat(source.ticket().consumerTaskIndex()).isEqualTo(consumer));
        }
    }

    @Test
    void everyInputAgreesWithItsProducerStage() {
        ExecutionPlan query = coalesce(distinct(collectLeft(table(30, 2), distinct(table(90, 3), "k", 3), JoinType.INNER), "k", 3));
        PlanChecks.assertInputsAgree(new DistributedPlanner(fanOut(4, 3)).plan(query));
    }

    private static List<String> reads(StageInputExec input, int partition) {
        return input.sourcesOf(partition).stream().map(PartitionMathTest::describe).toList();
    }

    private static String describe(RemotePartition source) {
        return source.worker().host() + " s" + source.ticket().producerTask().stageId() + ".t" + source.ticket().producerTask().taskIndex()
                + " p" + source.ticket().partition();
    }
}
