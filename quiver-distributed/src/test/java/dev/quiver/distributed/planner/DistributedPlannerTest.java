package dev.quiver.distributed.planner;

import static dev.quiver.distributed.plan.PlanBuilders.coalesce;
import static dev.quiver.distributed.plan.PlanBuilders.collectLeft;
import static dev.quiver.distributed.plan.PlanBuilders.crossJoin;
import static dev.quiver.distributed.plan.PlanBuilders.distinct;
import static dev.quiver.distributed.plan.PlanBuilders.fanOut;
import static dev.quiver.distributed.plan.PlanBuilders.partitioned;
import static dev.quiver.distributed.plan.PlanBuilders.table;
import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.distributed.operator.BoundaryKind;
import dev.quiver.distributed.operator.StageInputExec;
import dev.quiver.distributed.plan.DistributedPlan;
import dev.quiver.distributed.plan.PlanBuilders;
import dev.quiver.distributed.plan.PlanChecks;
import dev.quiver.distributed.plan.Stage;
import dev.quiver.distributed.plan.StageConsistency;
import dev.quiver.distributed.plan.StageFragment;
import dev.quiver.distributed.plan.TaskCountHint;
import dev.quiver.distributed.protocol.ProducerHead;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.operator.aggregate.AggregateExpr;
import dev.quiver.engine.operator.aggregate.AggregateFunction;
import dev.quiver.engine.operator.aggregate.AggregateMode;
import dev.quiver.engine.operator.aggregate.HashAggregateExec;
import dev.quiver.engine.operator.exchange.CoalescePartitionsExec;
import dev.quiver.engine.operator.exchange.RepartitionExec;
import dev.quiver.engine.operator.join.HashJoinExec;
import dev.quiver.engine.operator.join.JoinType;
import dev.quiver.engine.operator.join.PartitionMode;
import dev.quiver.engine.operator.limit.GlobalLimitExec;
import dev.quiver.engine.operator.sort.SortExec;
import dev.quiver.engine.operator.sort.SortKey;
import dev.quiver.engine.operator.window.WindowExec;
import dev.quiver.engine.operator.window.WindowExpr;
import dev.quiver.engine.operator.window.WindowFrame;
import dev.quiver.engine.operator.window.WindowFunction;
import dev.quiver.engine.source.memory.MemoryScanExec;
import dev.quiver.engine.types.QuiverTypes;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** Where the planner puts boundaries and how it sizes the stages between them. */
class DistributedPlannerTest {
    @Test
    void groupByShufflesBetweenPartialAndFinalAggregateAndGathersAtTheHead() {
        // SELECT DISTINCT k FROM t  (t: 100 rows in 3 partitions; P = 3; 4 workers; scans split as far as allowed)
        DistributedPlan plan = new DistributedPlanner(fanOut(4, 3)).plan(coalesce(distinct(table(100, 3), "k", 3)));

        assertThat(plan.stages()).hasSize(3);
        Stage scan = plan.stage(0);
        Stage finalAggregate = plan.stage(1);
        Stage head = plan.headStage();
        assertThat(scan.taskCount()).isEqualTo(4);
        assertThat(scan.partitionsPerTask()).isEqualTo(3);
        assertThat(scan.output()).hasValueSatisfying(out -> {
            assertThat(out.kind()).isEqualTo(BoundaryKind.SHUFFLE);
            assertThat(out.consumerStageId()).isEqualTo(1);
            assertThat(out.partitionsPerConsumerTask()).isEqualTo(3);
        });
        assertThat(scan.taskCountHint().origin()).contains("MemoryScanExec").contains("clamped");
        assertThat(finalAggregate.taskCount()).isEqualTo(4);
        assertThat(finalAggregate.taskCountHint()).isEqualTo(TaskCountHint.desired(4, "shuffle input from stage 0 (4 tasks)"));
        StageInputExec shuffle = onlyInput(finalAggregate.plan());
        assertThat(List.of(shuffle.producerTasks(), shuffle.producerPartitions(), shuffle.consumerTasks(), shuffle.partitionsPerConsumerTask()))
                .containsExactly(4, 3, 4, 3);
        assertThat(finalAggregate.output().orElseThrow().kind()).isEqualTo(BoundaryKind.COALESCE);
        assertThat(head.taskCount()).isEqualTo(1);
        assertThat(head.plan()).isInstanceOf(CoalescePartitionsExec.class);
        StageInputExec gather = onlyInput(head.plan());
        assertThat(gather.kind()).isEqualTo(BoundaryKind.COALESCE);
        assertThat(gather.outputPartitioning().partitionCount()).isEqualTo(12);
        assertThat(head.inputStageIds()).containsExactly(1);
    }

    @Test
    void tasksOfAScanStageReadDisjointSharesOfTheRows() {
        DistributedPlan plan = new DistributedPlanner(fanOut(3, 2)).plan(coalesce(table(50, 2)));
        Stage scan = plan.stage(0);
        assertThat(scan.taskCount()).isEqualTo(3);
        List<Object> seen = new ArrayList<>();
        for (ExecutionPlan task : scan.taskPlans()) {
            MemoryScanExec share = (MemoryScanExec) task;
            assertThat(share.partitions()).hasSize(2);
            share.partitions().forEach(partition -> partition.forEach(row -> seen.add(row.get(1))));
        }
        assertThat(seen).containsExactlyInAnyOrderElementsOf(table(50, 2).partitions().stream().flatMap(List::stream).map(row -> row.get(1)).toList());
    }

    @Test
    void innerCollectLeftJoinBroadcastsItsBuildSide() {
        DistributedPlan plan = new DistributedPlanner(fanOut(4, 2)).plan(coalesce(collectLeft(table(10, 2), table(100, 2), JoinType.INNER)));
        // stage 0: build scan, stage 1: join with the probe scan, stage 2: head
        assertThat(plan.stages()).hasSize(3);
        assertThat(plan.stage(0).output().orElseThrow().kind()).isEqualTo(BoundaryKind.BROADCAST);
        Stage join = plan.stage(1);
        assertThat(join.taskCount()).isEqualTo(4);
        HashJoinExec joinNode = (HashJoinExec) join.plan();
        StageInputExec build = (StageInputExec) joinNode.left();
        assertThat(build.kind()).isEqualTo(BoundaryKind.BROADCAST);
        assertThat(List.of(build.producerTasks(), build.consumerTasks(), build.partitionsPerConsumerTask())).containsExactly(4, 4, 8);
    }

    @Test
    void leftCollectLeftJoinAndLeftNestedLoopJoinRunAsOneTaskNamingTheJoin() {
        DistributedPlan hash = new DistributedPlanner(fanOut(4, 2)).plan(coalesce(collectLeft(table(10, 2), table(100, 2), JoinType.LEFT)));
        assertThat(hash.stages()).hasSize(2);
        assertThat(hash.stage(0).taskCountHint()).isInstanceOf(TaskCountHint.Exact.class);
        assertThat(hash.stage(0).taskCountHint().origin()).contains("HashJoinExec(LEFT, collect_left)");
        assertThat(hash.stage(0).taskCount()).isEqualTo(1);

        DistributedPlan loop = new DistributedPlanner(fanOut(4, 2)).plan(coalesce(crossJoin(table(10, 2), table(100, 2), JoinType.LEFT_ANTI)));
        assertThat(loop.stage(0).taskCount()).isEqualTo(1);
        assertThat(loop.stage(0).taskCountHint().origin()).contains("NestedLoopJoinExec(LEFT_ANTI)");

        DistributedPlan cross = new DistributedPlanner(fanOut(4, 2)).plan(coalesce(crossJoin(table(10, 2), table(100, 2), JoinType.INNER)));
        assertThat(cross.stage(0).output().orElseThrow().kind()).isEqualTo(BoundaryKind.BROADCAST);
        assertThat(cross.stage(1).taskCount()).isEqualTo(4);
    }

    @Test
    void aNodeThatNeedsItsWholeInputKeepsASplittableInputInOneTask() {
        // SELECT * FROM t LIMIT 5 over a one-partition table: no coalesce, the limit sees the single partition
        DistributedPlan limit = new DistributedPlanner(fanOut(4, 1)).plan(new GlobalLimitExec(table(100, 1), 0, OptionalLong.of(5)));
        assertThat(limit.stage(0).taskCount()).isEqualTo(1);
        assertThat(limit.stage(0).taskCountHint().origin()).startsWith("GlobalLimitExec needs all of its input in one partition");

        // SELECT k, count(*) FROM t GROUP BY k over a one-partition table: a single-mode aggregate
        HashAggregateExec single = new HashAggregateExec(AggregateMode.SINGLE, List.of(PlanBuilders.col(table(100, 1), "k")), List.of("k"), List.of(),
                table(100, 1));
        assertThat(new DistributedPlanner(fanOut(4, 1)).plan(single).stage(0).taskCount()).isEqualTo(1);

        // a final aggregate over a shuffle has whole groups in every task
        DistributedPlan grouped = new DistributedPlanner(fanOut(4, 1)).plan(distinct(table(100, 1), "k", 2));
        assertThat(grouped.stage(1).taskCount()).isEqualTo(4);
        // and a limit over a coalesce sees everything already
        DistributedPlan gathered = new DistributedPlanner(fanOut(4, 2)).plan(new GlobalLimitExec(coalesce(table(100, 2)), 0, OptionalLong.of(5)));
        assertThat(gathered.stages()).hasSize(2);
        assertThat(gathered.stage(0).taskCount()).isEqualTo(4);
    }

    /** A window needs each window partition whole: over a shuffle on its partition keys it splits, otherwise it is one task. */
    @Test
    void aWindowSplitsOverAShuffleOnItsPartitionKeysAndIsOneTaskOtherwise() {
        WindowExpr count = new WindowExpr(new WindowFunction.Aggregate(new AggregateExpr(AggregateFunction.COUNT, List.of(), false, "n",
                QuiverTypes.INT64)), WindowFrame.WHOLE_PARTITION, "n");
        // SELECT count(*) OVER () FROM t over a one-partition table
        ExecutionPlan whole = new WindowExec(table(100, 1), List.of(), List.of(), List.of(count));
        DistributedPlan single = new DistributedPlanner(fanOut(4, 1)).plan(whole);
        assertThat(single.stage(0).taskCount()).isEqualTo(1);
        assertThat(single.stage(0).taskCountHint().origin()).startsWith("WindowExec needs all of its input in one partition");

        // SELECT count(*) OVER (PARTITION BY k) FROM t: hash repartition on k, sort, window
        ExecutionPlan input = table(100, 2);
        List<PhysicalExpr> keys = List.of(PlanBuilders.col(input, "k"));
        ExecutionPlan sorted = new SortExec(new RepartitionExec(input, new Partitioning.Hash(keys, 2)),
                List.of(new SortKey(keys.get(0), true, true)), OptionalLong.empty(), true);
        DistributedPlan partitioned = new DistributedPlanner(fanOut(4, 2)).plan(new WindowExec(sorted, keys, List.of(), List.of(count)));
        assertThat(partitioned.stage(1).taskCount()).isEqualTo(4);
        assertThat(partitioned.stage(0).output().orElseThrow().kind()).isEqualTo(BoundaryKind.SHUFFLE);

        // the same window without the shuffle below it cannot split
        ExecutionPlan unshuffled = new SortExec(table(100, 2), List.of(new SortKey(keys.get(0), true, true)), OptionalLong.empty(), true);
        DistributedPlan local = new DistributedPlanner(fanOut(4, 2)).plan(coalesce(new WindowExec(unshuffled, keys, List.of(), List.of(count))));
        assertThat(local.stage(0).taskCount()).isEqualTo(1);
    }

    @Test
    void theCoordinatorRunsNoScanEvenWhenTheRootStageIsOneTask() {
        // a LEFT join probing a gathered input: one task, but it scans its build side, so it runs on a worker
        ExecutionPlan root = collectLeft(table(10, 1), coalesce(table(100, 2)), JoinType.LEFT);
        DistributedPlan plan = new DistributedPlanner(fanOut(4, 2)).plan(root);
        assertThat(plan.stages()).hasSize(3);
        assertThat(plan.stage(1).plan()).isInstanceOf(HashJoinExec.class);
        assertThat(plan.stage(1).taskCount()).isEqualTo(1);
        assertThat(plan.headStage().plan()).isInstanceOf(CoalescePartitionsExec.class);
        PlanChecks.assertInputsAgree(plan);
    }

    @Test
    void withoutBroadcastJoinsACollectLeftJoinIsPlannedPartitioned() {
        DistributedPlan plan = new DistributedPlanner(fanOut(2, 3).withBroadcastJoins(false))
                .plan(coalesce(collectLeft(table(10, 2), table(100, 2), JoinType.LEFT)));
        // two shuffled sides, the join, the head
        assertThat(plan.stages()).hasSize(4);
        Stage join = plan.stage(2);
        HashJoinExec joinNode = (HashJoinExec) join.plan();
        assertThat(joinNode.mode()).isEqualTo(PartitionMode.PARTITIONED);
        assertThat(((StageInputExec) joinNode.left()).kind()).isEqualTo(BoundaryKind.SHUFFLE);
        assertThat(((StageInputExec) joinNode.right()).partitionsPerConsumerTask()).isEqualTo(3);
        assertThat(join.taskCount()).isEqualTo(2);
    }

    @Test
    void partitionedJoinReadsTwoShufflesWithTheSameConsumerCount() {
        DistributedPlan plan = new DistributedPlanner(fanOut(3, 2)).plan(coalesce(partitioned(table(10, 1), table(100, 2), JoinType.FULL, 2)));
        Stage join = plan.stage(2);
        HashJoinExec joinNode = (HashJoinExec) join.plan();
        StageInputExec left = (StageInputExec) joinNode.left();
        StageInputExec right = (StageInputExec) joinNode.right();
        assertThat(left.consumerTasks()).isEqualTo(right.consumerTasks()).isEqualTo(join.taskCount());
        assertThat(left.producerHead()).isEqualTo(new ProducerHead.Shuffle(left.keys(), 2, join.taskCount()));
    }

    @Test
    void sizingTakesOnlyTheCallersHintsBesideTheNodes() {
        // AQE cuts once, then sizes each stage when it closes
        DistributedPlanner planner = new DistributedPlanner(fanOut(4, 3));
        List<StageFragment> fragments = planner.cut(coalesce(distinct(table(100, 3), "k", 3)));
        assertThat(fragments).extracting(StageFragment::stageId).containsExactly(0, 1, 2);
        assertThat(fragments.get(0).outputKind()).contains(BoundaryKind.SHUFFLE);
        assertThat(fragments.get(2).isHead()).isTrue();
        Stage scan = planner.size(fragments.get(0), List.of(), List.of(TaskCountHint.desired(2, "cost 20 MiB")));
        assertThat(scan.taskCount()).isEqualTo(2);
        Stage aggregate = planner.size(fragments.get(1), List.of(scan), List.of(TaskCountHint.exact(3, "handler")));
        assertThat(aggregate.taskCount()).isEqualTo(3);
        Stage head = planner.size(fragments.get(2), List.of(scan, aggregate), List.of());
        StageConsistency.check(new DistributedPlan(fragments.get(2).plan(), List.of(scan, aggregate, head)));
        StageInputExec shuffle = onlyInput(aggregate.plan());
        assertThat(List.of(shuffle.producerTasks(), shuffle.consumerTasks(), shuffle.producerHead().outputPartitions(3))).containsExactly(2, 3, 9);
    }

    @Test
    void maxTasksPerStageLimitsEveryStage() {
        DistributedPlan plan = new DistributedPlanner(fanOut(4, 3).withMaxTasksPerStage(2)).plan(coalesce(distinct(table(100, 3), "k", 3)));
        assertThat(plan.stage(0).taskCount()).isEqualTo(2);
        assertThat(plan.stage(0).taskCountHint().origin()).contains("clamped by setting distributed.max_tasks_per_stage=2");
        assertThat(plan.stage(1).taskCount()).isEqualTo(2);
    }

    private static StageInputExec onlyInput(ExecutionPlan plan) {
        List<StageInputExec> inputs = new ArrayList<>();
        collect(plan, inputs);
        assertThat(inputs).hasSize(1);
        return inputs.get(0);
    }

    private static void collect(ExecutionPlan plan, List<StageInputExec> inputs) {
        if (plan instanceof StageInputExec input) {
            inputs.add(input);
        }
        plan.children().forEach(child -> collect(child, inputs));
    }
}
