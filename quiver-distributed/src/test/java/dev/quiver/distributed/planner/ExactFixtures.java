package dev.quiver.distributed.planner;

import dev.quiver.distributed.event.DynamicStageBuiltEvent;
import dev.quiver.distributed.event.DynamicStageBuiltEventResponse;
import dev.quiver.distributed.event.PlanningMode;
import dev.quiver.distributed.event.StageBoundary;
import dev.quiver.distributed.event.StageEventHandler;
import dev.quiver.distributed.plan.DistributedPlannerSettings;
import dev.quiver.distributed.plan.PlanBuilders;
import dev.quiver.distributed.plan.Stage;
import dev.quiver.distributed.plan.StageFragment;
import dev.quiver.distributed.plan.TaskCountHint;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.expr.ColumnExpr;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.operator.aggregate.AggregateExpr;
import dev.quiver.engine.operator.aggregate.AggregateMode;
import dev.quiver.engine.operator.aggregate.HashAggregateExec;
import dev.quiver.engine.operator.exchange.RepartitionExec;
import dev.quiver.engine.source.memory.MemoryScanExec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.apache.arrow.vector.types.pojo.Schema;

/** Plans cut the way the distributed planner cuts them, and the boundaries the coordinator would fire events for. */
public final class ExactFixtures {
    public static final Schema KV = PlanBuilders.KV;

    private ExactFixtures() {}

    /** A table of {@code rows} rows (k = i % 1000, v = i) in {@code partitions} partitions. */
    public static MemoryScanExec table(int rows, int partitions) {
        List<List<Object>> data = new ArrayList<>();
        for (long i = 0; i < rows; i++) {
            data.add(List.of(i % 1000, i));
        }
        return MemoryScanExec.split(KV, data, partitions);
    }

    public static ColumnExpr col(ExecutionPlan plan, String name) {
        return PlanBuilders.col(plan, name);
    }

    /** {@code SELECT keys..., aggregates... FROM input GROUP BY keys} as partial aggregate, hash repartition into P, final aggregate. */
    public static HashAggregateExec groupBy(ExecutionPlan input, List<String> keys, List<AggregateExpr> aggregates, int partitions) {
        HashAggregateExec partial = new HashAggregateExec(AggregateMode.PARTIAL, keys.stream().map(key -> (PhysicalExpr) col(input, key)).toList(), keys,
                aggregates, input);
        List<PhysicalExpr> finalKeys = keys.stream().map(key -> (PhysicalExpr) col(partial, key)).toList();
        return new HashAggregateExec(AggregateMode.FINAL, finalKeys, keys, aggregates,
                new RepartitionExec(partial, new Partitioning.Hash(finalKeys, partitions)));
    }

    /** A handler named {@code name} answering the stage-built event with {@code answer} (and leaving the sampled event alone). */
    public static StageEventHandler onBuilt(String name, Function<DynamicStageBuiltEvent, DynamicStageBuiltEventResponse> answer) {
        return new StageEventHandler() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public DynamicStageBuiltEventResponse onStageBuilt(DynamicStageBuiltEvent event) {
                return answer.apply(event);
            }
        };
    }

    public static DistributedPlanner planner(int workers, int partitions) {
        return new DistributedPlanner(DistributedPlannerSettings.defaults(workers, partitions).withBytesPerPartitionForScans(1));
    }

    /** The boundary above stage {@code producer} of {@code fragments}, every worker with {@code memory} bytes. */
    public static StageBoundary boundary(List<StageFragment> fragments, int producer, DistributedPlanner planner, long memory, PlanningMode mode) {
        StageEvents events = StageEvents.of(StageEventDispatcher.none(), "q1", Collections.nCopies(planner.settings().workerCount(), memory));
        return StageBoundaries.of(events, fragments.get(producer), fragments, planner.settings(), statistics(planner, mode)).orElseThrow();
    }

    /** {@code fragment} sized as static planning sizes it: with the sources' estimated hints besides {@code hints}. */
    public static Stage sizeStatic(DistributedPlanner planner, StageFragment fragment, List<Stage> producers, List<TaskCountHint> hints) {
        List<TaskCountHint> all = new ArrayList<>(planner.estimatedStatistics().advise(fragment, producers).hints());
        all.addAll(hints);
        return planner.size(fragment, producers, all);
    }

    /** Static planning of {@code plan} with {@code dispatcher}'s handlers. */
    public static StagePlanningLoop.Result plan(DistributedPlanner planner, ExecutionPlan plan, StageEventDispatcher dispatcher, String queryId,
            List<Long> workerMemoryLimits) {
        return planner.plan(plan, StageEvents.of(dispatcher, queryId, workerMemoryLimits));
    }

    /** The boundary above {@code producer}, as the loop builds it for {@code mode}. */
    public static Optional<StageBoundary> boundaryOf(String queryId, StageFragment producer, List<StageFragment> fragments, DistributedPlanner planner,
            List<Long> workerMemoryLimits, PlanningMode mode) {
        return StageBoundaries.of(StageEvents.of(StageEventDispatcher.none(), queryId, workerMemoryLimits), producer, fragments, planner.settings(),
                statistics(planner, mode));
    }

    /** The statistics a mode plans with; the adaptive ones never wait (the tests give samples by hand). */
    public static StageStatistics statistics(DistributedPlanner planner, PlanningMode mode) {
        return mode == PlanningMode.STATIC ? planner.estimatedStatistics()
                : AdaptivePlanning.of(planner).statistics(stageId -> Optional.empty());
    }
}
