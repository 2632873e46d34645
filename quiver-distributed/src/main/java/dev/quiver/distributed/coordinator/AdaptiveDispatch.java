package dev.quiver.distributed.coordinator;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.aqe.SampledStatistics;
import dev.quiver.distributed.aqe.StageDecision;
import dev.quiver.distributed.aqe.StageSampleCollector;
import dev.quiver.distributed.coordinator.spi.QueryEvent;
import dev.quiver.distributed.operator.DriverLeaves;
import dev.quiver.distributed.operator.SamplerExec;
import dev.quiver.distributed.plan.DistributedPlan;
import dev.quiver.distributed.plan.Stage;
import dev.quiver.distributed.plan.StageFragment;
import dev.quiver.distributed.plan.TaskCountHint;
import dev.quiver.distributed.plan.TaskRouter;
import dev.quiver.distributed.planner.AdaptivePlanning;
import dev.quiver.distributed.planner.SampledStageStatistics;
import dev.quiver.distributed.planner.StagePlanningLoop;
import dev.quiver.distributed.protocol.PartitionSample;
import dev.quiver.distributed.protocol.TaskId;
import dev.quiver.distributed.protocol.TaskRequest;
import dev.quiver.distributed.protocol.WorkerAddress;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.expr.PhysicalExpr;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The coordinator's side of AQE (DESIGN §5): runs the {@link StagePlanningLoop} with sampled
 * statistics and carries out what it decides, stage by stage:
 * <ol>
 *   <li>announces each stage as it closes ({@code StageClosed}) and once its task count is final
 *       ({@code StageCosted}, {@code StageSized}, once each, for the decision it runs with);</li>
 *   <li>dispatches a stage once the loop hands it on (every exact count of its consumer validated):
 *       all its tasks at once, each plan under a {@link SamplerExec} and without a producer head —
 *       the head is bound late, by the first data ticket of the consumer, once the consumer is sized;</li>
 *   <li>gathers the samples the workers send on the control streams into a
 *       {@link StageSampleCollector} until its stop rule holds, and hands the extrapolated output to
 *       the loop when it waits for it ({@link #await}); samples that arrive before the stage's
 *       {@code StageDispatched} event are held until it is out, so a stage's {@code StageSampled}
 *       always follows it.</li>
 * </ol>
 * A stage waits only for its own inputs' samples: independent branches sample concurrently; a
 * union stage is sized only after all its children are sampled. The head stage (one task, on the
 * coordinator) is sized last; {@link #run} returns its plan with its inputs bound, and
 * {@link #finalPlan()} the plan as it ran.
 */
final class AdaptiveDispatch implements StagePlanningLoop.Listener, SampledStageStatistics.Samples {
    private static final long POLL_MILLIS = 20;

    private final DistributedQuery query;
    private final AdaptivePlanning planning;
    private final ExecutionPlan singleNodePlan;
    private final TaskRouter router;
    /** The sampling of each dispatched stage, by stage id. */
    private final Map<Integer, Sampling> samplings = new ConcurrentHashMap<>();
    private final Map<Integer, StageDecision> decisions = new ConcurrentHashMap<>();
    /**
     * The stages dispatched so far, producers first; written by the loop's thread, read by the query's
     * final plan, which a transport thread may build while the loop still runs (a task failed).
     */
    private final List<Stage> stages = new CopyOnWriteArrayList<>();
    private final Map<Integer, List<WorkerAddress>> placed = new LinkedHashMap<>();
    private ExecutionPlan headPlan;

    private record HeldSample(int taskIndex, PartitionSample sample) {}

    /** One dispatched stage's samples: the collector, the statistics its consumer waits for, and the samples held until its dispatch is announced. */
    private static final class Sampling {
        final StageSampleCollector collector;
        final CompletableFuture<SampledStatistics> done = new CompletableFuture<>();
        /** Samples that arrived before the stage's {@code StageDispatched} event; null once they were offered. Guarded by this. */
        List<HeldSample> held = new ArrayList<>();

        Sampling(StageSampleCollector collector) {
            this.collector = collector;
        }
    }

    AdaptiveDispatch(DistributedQuery query, AdaptivePlanning planning, ExecutionPlan singleNodePlan, List<WorkerAddress> workers) {
        this.query = requireNonNull(query, "query is null");
        this.planning = requireNonNull(planning, "planning is null");
        this.singleNodePlan = requireNonNull(singleNodePlan, "singleNodePlan is null");
        this.router = new TaskRouter(workers);
    }

    /** Runs the loop up to the head stage; returns the head stage's plan with its inputs bound, or empty when the query ended first. */
    Optional<ExecutionPlan> run() {
        StagePlanningLoop loop = new StagePlanningLoop(planning.planner(), planning.statistics(this), planning.events(), this);
        return loop.run(singleNodePlan).map(result -> headPlan);
    }

    @Override
    public boolean ended() {
        return query.isEnding();
    }

    @Override
    public void closed(StageFragment fragment) {
        query.emit(new QueryEvent.StageClosed(query.queryId(), fragment.stageId(), fragment.inputStageIds()));
    }

    /** One {@code StageCosted} and one {@code StageSized} per stage, for the decision it runs with. */
    @Override
    public void sized(Stage stage, Optional<StageDecision> decision) {
        decision.ifPresent(chosen -> {
            decisions.put(stage.stageId(), chosen);
            query.emit(new QueryEvent.StageCosted(query.queryId(), stage.stageId(), chosen.cost().costBytes(), chosen.costHint()));
        });
        query.emitSized(stage);
    }

    @Override
    public void ready(Stage stage) {
        if (stage.isHead()) {
            stages.add(stage);
            headPlan = query.bindHead(stage, placed);
        } else if (!query.isEnding()) {
            dispatch(stage);
        }
    }

    /** The plan as it ran so far: every stage sized, producers first, the head stage last. */
    DistributedPlan finalPlan() {
        List<Stage> sofar = new ArrayList<>(stages);
        if (sofar.isEmpty() || !sofar.get(sofar.size() - 1).isHead()) {
            // the query ended (a failure, a cancel, a handler's error) before its head stage was sized:
            // the unsized rest stands in as the head, so the final plan still shows what ran
            int next = sofar.stream().mapToInt(Stage::stageId).max().orElse(-1) + 1;
            sofar.add(unsizedHead(next, singleNodePlan, "the query ended before AQE sized its head stage"));
        }
        return new DistributedPlan(singleNodePlan, sofar);
    }

    /** What stands in for the stages AQE has not sized (yet): the whole single-node plan as one head stage, {@code why} its hint's origin. */
    static Stage unsizedHead(int stageId, ExecutionPlan singleNodePlan, String why) {
        return new Stage(stageId, List.of(singleNodePlan), singleNodePlan.outputPartitioning().partitionCount(), TaskCountHint.exact(1, why),
                Optional.empty(), List.of());
    }

    /** What AQE decided per stage, with the sampled output of the stages that were sampled. */
    Map<Integer, StageDecision> decisions() {
        Map<Integer, StageDecision> all = new LinkedHashMap<>();
        for (Stage stage : stages) {
            StageDecision decision = decisions.get(stage.stageId());
            if (decision != null) {
                Sampling sampling = samplings.get(stage.stageId());
                CompletableFuture<SampledStatistics> sample = sampling == null ? null : sampling.done;
                all.put(stage.stageId(), sample != null && sample.isDone() && !sample.isCompletedExceptionally() ? decision.withSample(sample.join()) : decision);
            }
        }
        return all;
    }

    /**
     * A sample from a task's control stream; may arrive on any transport thread, also before the
     * loop announced its stage's dispatch: such a sample is held and offered right after the
     * {@code StageDispatched} event, so that a stage's {@code StageSampled} always follows it.
     */
    void onSample(TaskId task, PartitionSample sample) {
        Sampling sampling = samplings.get(task.stageId());
        if (sampling == null) {
            return;
        }
        synchronized (sampling) {
            if (sampling.held != null) {
                sampling.held.add(new HeldSample(task.taskIndex(), sample));
                return;
            }
            offer(task.stageId(), sampling, task.taskIndex(), sample);
        }
    }

    /** Offers one sample to its stage's collector; the caller holds {@code sampling}. */
    private void offer(int stageId, Sampling sampling, int taskIndex, PartitionSample sample) {
        CompletableFuture<SampledStatistics> done = sampling.done;
        // the event goes out before the consumer can see the statistics, so that events keep the order of the loop
        if (done.isDone() || !sampling.collector.offer(taskIndex, sample)) {
            return;
        }
        Optional<SampledStatistics> estimate = sampling.collector.estimate();
        if (estimate.isPresent()) {
            SampledStatistics statistics = estimate.get();
            query.emit(new QueryEvent.StageSampled(query.queryId(), stageId, statistics.rows(), statistics.bytes(), statistics.distinctKeys(),
                    statistics.fractionSampled(), statistics.summary()));
            done.complete(statistics);
        }
    }

    /** The stage's dispatch was announced: its held samples are offered, and later ones go straight to its collector. */
    private void releaseHeldSamples(int stageId) {
        Sampling sampling = samplings.get(stageId);
        synchronized (sampling) {
            List<HeldSample> waiting = sampling.held;
            sampling.held = null;
            for (HeldSample sample : waiting) {
                offer(stageId, sampling, sample.taskIndex(), sample.sample());
            }
        }
    }

    @Override
    public Optional<SampledStatistics> await(int stageId) {
        Sampling sampling = samplings.get(stageId);
        if (sampling == null) {
            throw new QuiverException(ErrorCode.PLAN_ERROR, "stage " + stageId + " is read before it was dispatched");
        }
        CompletableFuture<SampledStatistics> future = sampling.done;
        while (!query.isEnding()) {
            try {
                return Optional.of(future.get(POLL_MILLIS, TimeUnit.MILLISECONDS));
            } catch (TimeoutException e) {
                // look again whether the query is still running
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new QuiverException(ErrorCode.QUERY_CANCELLED, "interrupted while waiting for the samples of stage " + stageId);
            } catch (ExecutionException e) {
                throw DistributedQuery.asQuiver(e.getCause(), "Sampling stage " + stageId);
            }
        }
        return Optional.empty();
    }

    /** Dispatches every task of {@code stage} at once, under a sampler and without a head; starts collecting its samples. */
    private void dispatch(Stage stage) {
        List<WorkerAddress> placement = router.place(stage);
        List<PhysicalExpr> keys = stage.output().orElseThrow().keys();
        samplings.put(stage.stageId(), new Sampling(StageSampleCollector.forStage(stage)));
        long budget = sampleBudget(stage);
        List<TaskRequest> requests = query.taskRequests(stage, placed, Optional.empty(), bound -> new SamplerExec(bound, keys, budget));
        stages.add(stage);
        placed.put(stage.stageId(), placement);
        query.sendTasks(stage, requests, placement);
        releaseHeldSamples(stage.stageId());
    }

    /**
     * The sample budget per partition of {@code stage}: {@code sample_bytes_per_partition}, except
     * for a stage whose driver path is blocked (an aggregate or a full sort consumes its whole input
     * before its first row): its output is already computed when the first row comes, the driver
     * leaves cannot tell how much is left, and a budget-sized sample is only a lower bound. Such a
     * partition samples up to {@code dynamic_bytes_per_partition} (the budget of one partition's
     * cost), which mostly reaches its end, so its sample is its whole output (a batch the worker's
     * pool cannot hold still ends a sample early, never the task).
     */
    private long sampleBudget(Stage stage) {
        return DriverLeaves.of(stage.plan()).isBlocked() ? Math.max(planning.sampleBytesPerPartition(), planning.dynamicBytesPerPartition())
                : planning.sampleBytesPerPartition();
    }
}
