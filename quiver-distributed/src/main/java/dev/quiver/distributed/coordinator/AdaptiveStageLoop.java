package dev.quiver.distributed.coordinator;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.aqe.AdaptiveTaskCount;
import dev.quiver.distributed.aqe.SampledStatistics;
import dev.quiver.distributed.aqe.StageCost;
import dev.quiver.distributed.aqe.StageDecision;
import dev.quiver.distributed.aqe.StageSampleCollector;
import dev.quiver.distributed.coordinator.spi.QueryEvent;
import dev.quiver.distributed.operator.DriverLeaves;
import dev.quiver.distributed.operator.SamplerExec;
import dev.quiver.distributed.operator.StageInputExec;
import dev.quiver.distributed.plan.DistributedPlan;
import dev.quiver.distributed.plan.Stage;
import dev.quiver.distributed.plan.StageFragment;
import dev.quiver.distributed.plan.TaskCountHint;
import dev.quiver.distributed.plan.TaskRouter;
import dev.quiver.distributed.planner.AdaptivePlanning;
import dev.quiver.distributed.planner.AdaptiveStageEvents;
import dev.quiver.distributed.planner.DistributedPlanner;
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
 * The coordinator's adaptive loop (DESIGN §5): walks the stages of a query bottom-up and, for each,
 * once every stage it reads has been sampled:
 * <ol>
 *   <li>closes it, reads each shuffle input with the {@code P_c} a handler chose at that boundary
 *       ({@link AdaptiveStageEvents#onStageClosed}) and attaches its inputs' sampled statistics to its
 *       {@link StageInputExec}s;</li>
 *   <li>costs it from its leaves ({@link dev.quiver.distributed.aqe.CostModel}) and takes
 *       {@link AdaptiveTaskCount#desired} from the cost, merged with its nodes' hints, the
 *       {@code Exact} hints of leaves that cannot split (a source without a TaskEstimator runs as one
 *       task, and its origin says why) and the hook's hints ({@link AdaptivePlanning#stageHints()},
 *       where the stage-built events of DESIGN §6 plug in); fires the stage-built event
 *       ({@link AdaptiveStageEvents#onStageSized}), sizes a rewritten stage again, and only then
 *       announces the decision it dispatches ({@code StageCosted}, {@code StageSized}, once each);</li>
 *   <li>dispatches its tasks at once, each plan under a {@link SamplerExec} and without a producer
 *       head: the head is bound late, by the first data ticket of the consumer, once the consumer is
 *       sized;</li>
 *   <li>gathers the samples the workers send on the control streams into a
 *       {@link StageSampleCollector} until its stop rule holds, and keeps the extrapolated output for
 *       its consumer; samples that arrive before the stage's {@code StageDispatched} event are held
 *       until it is out, so a stage's {@code StageSampled} always follows it.</li>
 * </ol>
 * Stages are walked in the cutter's order (every stage after the stages it reads), and a stage waits
 * only for its own inputs' samples: independent branches are dispatched without waiting for each
 * other and sample concurrently; a union stage is sized only after all its children are sampled.
 * Each step is a query event. The head stage (one task, on the coordinator) is sized last; the loop
 * returns its plan with its inputs bound, and the plan as it ran ({@link #finalPlan()}).
 */
final class AdaptiveStageLoop {
    private static final long POLL_MILLIS = 20;

    private final DistributedQuery query;
    private final AdaptivePlanning planning;
    private final ExecutionPlan singleNodePlan;
    private final TaskRouter router;
    /** The sampling of each dispatched stage, by stage id. */
    private final Map<Integer, Sampling> samplings = new ConcurrentHashMap<>();
    private final Map<Integer, StageDecision> decisions = new ConcurrentHashMap<>();
    /**
     * The stages sized so far, producers first; written by the loop's thread, read by the query's
     * final plan, which a transport thread may build while the loop still runs (a task failed).
     */
    private final List<Stage> stages = new CopyOnWriteArrayList<>();
    private final Map<Integer, List<WorkerAddress>> placed = new LinkedHashMap<>();

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

    AdaptiveStageLoop(DistributedQuery query, AdaptivePlanning planning, ExecutionPlan singleNodePlan, List<WorkerAddress> workers) {
        this.query = requireNonNull(query, "query is null");
        this.planning = requireNonNull(planning, "planning is null");
        this.singleNodePlan = requireNonNull(singleNodePlan, "singleNodePlan is null");
        this.router = new TaskRouter(workers);
    }

    /** Runs the loop up to the head stage; returns the head stage's plan with its inputs bound, or empty when the query ended first. */
    Optional<ExecutionPlan> run() {
        DistributedPlanner planner = planning.planner();
        List<StageFragment> fragments = planner.cut(singleNodePlan);
        for (StageFragment fragment : fragments) {
            if (query.isEnding()) {
                return Optional.empty();
            }
            Map<Integer, SampledStatistics> inputs = new LinkedHashMap<>();
            for (int input : fragment.inputStageIds()) {
                Optional<SampledStatistics> statistics = awaitSample(input);
                if (statistics.isEmpty()) {
                    return Optional.empty();
                }
                inputs.put(input, statistics.get());
                planning.stageEvents().onStageSampled(sized(input), statistics.get());
            }
            query.emit(new QueryEvent.StageClosed(query.queryId(), fragment.stageId(), fragment.inputStageIds()));
            StageFragment closed = withInputStatistics(planning.stageEvents().onStageClosed(fragment), inputs);
            Sizing sizing = size(closed);
            if (sizing.stage().isHead()) {
                Stage head = sizing.stage();
                stages.add(head);
                emitSized(sizing);
                return Optional.of(query.bindHead(head, placed));
            }
            StageFragment built = planning.stageEvents().onStageSized(closed, fragments, sizing.stage());
            if (built != closed) {
                // a handler rewrote the producer (or set its P_c): the stage is costed and sized again, and only that decision is announced
                sizing = size(built);
            }
            emitSized(sizing);
            dispatch(sizing.stage());
        }
        throw new QuiverException(ErrorCode.PLAN_ERROR, "the stages of query " + query.queryId() + " have no head stage");
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

    private Stage sized(int stageId) {
        return stages.stream().filter(stage -> stage.stageId() == stageId).findFirst()
                .orElseThrow(() -> new QuiverException(ErrorCode.PLAN_ERROR, "stage " + stageId + " is read before it was sized"));
    }

    private Optional<SampledStatistics> awaitSample(int stageId) {
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

    /** What sizing a stage decided: the stage, its cost and the task count the cost asks for. */
    private record Sizing(Stage stage, StageCost cost, TaskCountHint.Desired costHint) {}

    /**
     * Costs and sizes {@code fragment} (DESIGN §5 steps 1–2) without announcing it: a stage that feeds
     * a shuffle or broadcast may still be rewritten by a handler, and its events tell the decision it
     * is dispatched with ({@link #emitSized}).
     */
    private Sizing size(StageFragment fragment) {
        StageCost cost = planning.costModel().cost(fragment.plan());
        int partitions = fragment.plan().outputPartitioning().partitionCount();
        int max = planning.planner().settings().effectiveMaxTasksPerStage();
        TaskCountHint.Desired costHint = AdaptiveTaskCount.desired(cost.costBytes(), planning.dynamicBytesPerPartition(), partitions, max);
        List<TaskCountHint> hints = new ArrayList<>();
        hints.add(costHint);
        hints.addAll(planning.stageHints().hints(fragment.stageId(), fragment.plan(), List.copyOf(stages)));
        Stage stage = planning.planner().size(fragment, stages, hints, DistributedPlanner.SizingMode.ADAPTIVE);
        decisions.put(stage.stageId(), new StageDecision(stage.stageId(), cost, costHint, stage.taskCountHint(), Optional.empty(),
                planning.planner().advisoryLeafHints(fragment)));
        return new Sizing(stage, cost, costHint);
    }

    /** One {@code StageCosted} and one {@code StageSized} per stage, for the decision it runs with. */
    private void emitSized(Sizing sizing) {
        Stage stage = sizing.stage();
        query.emit(new QueryEvent.StageCosted(query.queryId(), stage.stageId(), sizing.cost().costBytes(), sizing.costHint()));
        query.emitSized(stage);
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

    /** {@code fragment} with each stage input carrying its producer's sampled statistics (DESIGN §5 step 6). */
    private static StageFragment withInputStatistics(StageFragment fragment, Map<Integer, SampledStatistics> inputs) {
        ExecutionPlan plan = StageBinding.replaceInputs(fragment.plan(), input -> {
            SampledStatistics statistics = inputs.get(input.producerStageId());
            return input.withStatistics(statistics == null ? input.statistics() : statistics.statistics());
        });
        return new StageFragment(fragment.stageId(), plan, fragment.nodeHints(), fragment.outputKind(), fragment.outputKeys(),
                fragment.shufflePartitionsPerConsumerTask(), fragment.consumerStageId(), fragment.inputStageIds());
    }
}
