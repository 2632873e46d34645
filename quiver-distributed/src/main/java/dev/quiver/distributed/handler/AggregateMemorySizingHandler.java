package dev.quiver.distributed.handler;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.event.DynamicStageBuiltEvent;
import dev.quiver.distributed.event.DynamicStageBuiltEventResponse;
import dev.quiver.distributed.event.StageBoundary;
import dev.quiver.distributed.event.StageEventHandler;
import dev.quiver.distributed.event.StageSampledEvent;
import dev.quiver.distributed.event.StageSampledEventResponse;
import dev.quiver.distributed.operator.BoundaryKind;
import dev.quiver.distributed.operator.StageInputExec;
import dev.quiver.engine.config.EngineSettings;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.PlanTree;
import dev.quiver.engine.operator.aggregate.AggregateMode;
import dev.quiver.engine.operator.aggregate.HashAggregateExec;
import dev.quiver.engine.stats.Estimate;
import dev.quiver.engine.stats.Statistics;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Consumer;

/**
 * The reference stage-event handler of DESIGN §6: sizes the consumer of a shuffle whose fragment
 * holds a grouped FINAL or SINGLE hash aggregate (a {@code COUNT(DISTINCT x) ... GROUP BY k}, a
 * {@code UNION}, a {@code SELECT DISTINCT}) so that its hash tables fit the workers' memory, and
 * requires that count exactly (advisory AQE sizes by bytes, and would coalesce a
 * high-cardinality GROUP BY into fewer tasks than its state needs).
 *
 * <p>Groups G come from the key-tuple sketch of the sampled producer ({@link StageSampledEvent}),
 * or before sampling from the catalog's distinct counts of the keys, traced through the producer
 * ({@link DynamicStageBuiltEvent}); without either, from the producer's estimated output rows
 * (each row at most one group). The handler sizes for {@code safety × G} groups: the margin covers
 * the estimate's error, and because it is applied before the engine's power-of-two table
 * capacity, a margin that crosses a capacity step budgets the doubled table. With b bytes per
 * group slot ({@code GroupStateWidth}), the groups' strings (their widths from the producer's
 * sampled or estimated row bytes) and a DISTINCT aggregate's {@code (group, value)} pairs
 * ({@link GroupState}), and {@code P_c} partitions per task, one task holds
 * {@code taskBytes(n, P_c) = P_c × (b × capacity(ceil(safety·G / (n·P_c))) + strings + pairs)}. A worker runs
 * {@code ceil(n/W)} of them next to {@code ceil(T_p/W)} producer tasks, of which the handler
 * counts one batch per partition: what a producer holds beyond that gives way under pressure
 * (a PARTIAL aggregate emits what it holds, a sampler stops buffering) instead of failing.
 *
 * <p>It requires the smallest n ≤ the task limit with
 * {@code ceil(n/W) × taskBytes(n, P_c) + coResident ≤ workerLimit}, with the planned {@code P_c}
 * when that fits; otherwise, when the boundary is the consumer's only input, with the {@code P_c}
 * nearest the planned one (between half and twice it) that fits, which it then requires too
 * ({@code withExactConsumerTasks(n, P_c)}): the table capacities step by powers of two, and
 * another split of the groups can fill them instead of leaving them half empty. When nothing
 * fits it fails with {@code EXCEEDED_MEMORY_LIMIT} naming G, b, W and the limit (no n can do
 * better than G/W groups per worker).
 */
public final class AggregateMemorySizingHandler implements StageEventHandler {
    /**
     * The default margin on the estimated groups: the key sketch's error is ~5% at three standard
     * errors and AQE's row estimates reach q-errors of ~1.2 at the 95th percentile (docs/aqe.md).
     */
    public static final double DEFAULT_SAFETY_FACTOR = 1.25;

    private final double safetyFactor;
    private final Consumer<AggregateSizing> decisions;

    /** With {@link #DEFAULT_SAFETY_FACTOR}; the constructor {@code --stage-handler} uses. */
    public AggregateMemorySizingHandler() {
        this(DEFAULT_SAFETY_FACTOR);
    }

    public AggregateMemorySizingHandler(double safetyFactor) {
        this(safetyFactor, sizing -> { });
    }

    /**
     * @param decisions told every sizing the handler answers an event with (the demo prints them);
     *     called on the coordinator's planning thread, so it must be thread-safe
     */
    public AggregateMemorySizingHandler(double safetyFactor, Consumer<AggregateSizing> decisions) {
        if (!(safetyFactor >= 1)) {
            throw new IllegalArgumentException("the safety factor must be at least 1: " + safetyFactor);
        }
        this.safetyFactor = safetyFactor;
        this.decisions = requireNonNull(decisions, "decisions is null");
    }

    @Override
    public String name() {
        return "AggregateMemorySizingHandler";
    }

    @Override
    public DynamicStageBuiltEventResponse onStageBuilt(DynamicStageBuiltEvent event) {
        return sizing(event).map(this::told).map(sizing -> sizing.partitionsPerConsumerTask() == event.boundary().partitionsPerConsumerTask()
                        ? DynamicStageBuiltEventResponse.unchanged().withExactConsumerTasks(sizing.consumerTasks())
                        : DynamicStageBuiltEventResponse.unchanged().withExactConsumerTasks(sizing.consumerTasks(), sizing.partitionsPerConsumerTask()))
                .orElseGet(DynamicStageBuiltEventResponse::unchanged);
    }

    private AggregateSizing told(AggregateSizing sizing) {
        decisions.accept(sizing);
        return sizing;
    }

    /**
     * What {@link #onStageBuilt} decides: the sizing of the boundary's GROUP BY from estimated
     * statistics, empty when its consumer holds no grouped FINAL aggregate reading it.
     *
     * @throws QuiverException {@code EXCEEDED_MEMORY_LIMIT} when no task count within the limit fits
     */
    public Optional<AggregateSizing> sizing(DynamicStageBuiltEvent event) {
        Optional<HashAggregateExec> aggregate = finalAggregate(event.boundary());
        if (aggregate.isEmpty()) {
            return Optional.empty();
        }
        long rows = Math.max(1, event.producerCost().outputRows());
        OptionalLong catalog = GroupCardinality.distinctTuples(event.producerPlan(), event.boundary().keys(), rows);
        long groups = catalog.orElse(rows);
        String source = catalog.isPresent() ? "catalog distinct counts" : "at most the producer's ~" + rows + " output rows";
        double rowBytes = event.producerCost().outputRows() > 0 ? (double) event.producerCost().outputBytes() / event.producerCost().outputRows() : 64;
        double strings = GroupStateWidth.stringBytes(event.producerPlan().schema(), rowBytes);
        GroupState state = GroupState.of(aggregate.get(), groups, rows, strings,
                column -> GroupCardinality.distinct(event.producerPlan(), column));
        return Optional.of(size(event.boundary(), aggregate.get(), state, source, event.producerTasks(),
                event.producerPlan().outputPartitioning().partitionCount(), rowBytes, onlyInput(event.boundary()), 1));
    }

    @Override
    public StageSampledEventResponse onStageSampled(StageSampledEvent event) {
        return sizing(event).map(this::told).map(sizing -> StageSampledEventResponse.exactConsumerTasks(sizing.consumerTasks()))
                .orElseGet(StageSampledEventResponse::unchanged);
    }

    /**
     * What {@link #onStageSampled} decides: the sizing from the sampled statistics, empty when the
     * boundary has no grouped FINAL aggregate above it or the sample is only a lower bound. An exact
     * count the stage-built event left (this handler's, from estimates) is a floor: once the producer
     * runs, a consumer count may be raised or confirmed but not lowered (DESIGN §6), so the sizing
     * starts from it.
     */
    public Optional<AggregateSizing> sizing(StageSampledEvent event) {
        Optional<HashAggregateExec> aggregate = finalAggregate(event.boundary());
        if (aggregate.isEmpty() || event.sampled().lowerBound()) {
            // A lower-bound sample (a partition still blocked) counts only what it saw: sizing from
            // it would undercount the groups, so the stage-built decision stands.
            return Optional.empty();
        }
        long rows = Math.max(1, event.sampled().rows());
        boolean sketched = event.sampled().distinctKeys() >= 0;
        long groups = sketched ? Math.max(1, event.sampled().distinctKeys()) : rows;
        String source = sketched ? "key sketch of the sampled producer" : "at most the producer's ~" + rows + " sampled rows";
        double rowBytes = event.sampled().rows() > 0 ? (double) event.sampled().bytes() / event.sampled().rows() : 64;
        double strings = GroupStateWidth.stringBytes(event.producerPlan().schema(), rowBytes);
        Statistics sampled = event.sampled().statistics();
        GroupState state = GroupState.of(aggregate.get(), groups, rows, strings, column -> {
            Estimate distinct = column < sampled.columns().size() ? sampled.columns().get(column).distinctCount() : Estimate.absent();
            return distinct.isKnown() ? OptionalLong.of(distinct.value()) : OptionalLong.empty();
        });
        // the producer is running: its head's P_c is fixed, only the count may change, and not below the stage-built exact
        return Optional.of(size(event.boundary(), aggregate.get(), state, source, event.producerTasks(),
                event.producerPlan().outputPartitioning().partitionCount(), rowBytes, false, event.exactConsumerTasks().orElse(1)));
    }

    /**
     * The sizing for {@code groups} groups of {@code aggregate} behind {@code boundary}, with the
     * boundary's planned {@code P_c} or, when {@code mayChoosePartitions}, another that fits.
     *
     * @throws QuiverException {@code EXCEEDED_MEMORY_LIMIT} when no task count within the limit fits
     */
    public AggregateSizing size(StageBoundary boundary, HashAggregateExec aggregate, long groups, String groupsSource, int producerTasks,
            int producerPartitions, double producerRowBytes, boolean mayChoosePartitions) {
        GroupState state = GroupState.of(aggregate, groups, groups, GroupStateWidth.DEFAULT_STRING_BYTES, column -> OptionalLong.empty());
        return size(boundary, aggregate, state, groupsSource, producerTasks, producerPartitions, producerRowBytes, mayChoosePartitions, 1);
    }

    /** Like the other {@code size}, for the modelled {@code state} and trying no count below {@code minTasks}. */
    AggregateSizing size(StageBoundary boundary, HashAggregateExec aggregate, GroupState state, String groupsSource, int producerTasks,
            int producerPartitions, double producerRowBytes, boolean mayChoosePartitions, int minTasks) {
        long groups = state.groups();
        int workers = boundary.workerCount();
        int planned = boundary.partitionsPerConsumerTask();
        long batchRows = batchRows(boundary);
        long coResident = ceilDiv(producerTasks, workers) * producerPartitions * (long) Math.ceil(batchRows * producerRowBytes);
        long limit = boundary.minWorkerMemoryLimit();
        for (int n = Math.max(1, minTasks); n <= boundary.maxTasksPerStage(); n++) {
            for (int partitions : partitionChoices(planned, mayChoosePartitions)) {
                long taskBytes = state.taskBytes(safetyFactor, n, partitions);
                long workerBytes = ceilDiv(n, workers) * taskBytes + coResident;
                if (workerBytes <= limit) {
                    return new AggregateSizing(groups, groupsSource, state.averageBytesPerGroup(), n, workers, partitions, taskBytes,
                            state.taskBytes(1.0, n, partitions), workerBytes, coResident, limit);
                }
            }
        }
        long perWorkerGroups = ceilDiv(groups, workers);
        long best = partitionChoices(planned, mayChoosePartitions).stream().mapToLong(p -> state.taskBytes(safetyFactor, workers, p)).min()
                .orElseThrow() + coResident;
        String why = boundary.maxTasksPerStage() < workers
                ? "even " + boundary.maxTasksPerStage() + " tasks (the limit, " + boundary.maxTasksOrigin() + ") do not fit"
                : "even spread over all W=" + workers + " workers, G/W=" + perWorkerGroups + " groups need ~" + best + " bytes per worker";
        String distinct = state.distinct().isEmpty() ? "" : " and " + state.distinct().stream().mapToLong(GroupState.Pairs::pairs).sum()
                + " distinct (group, value) pairs";
        throw new QuiverException(ErrorCode.EXCEEDED_MEMORY_LIMIT, "the GROUP BY of " + aggregate.displayLine() + " at " + boundary.describe()
                + " has G=" + groups + " groups (" + groupsSource + ")" + distinct + ", ~" + state.averageBytesPerGroup() + " bytes per group (sized for "
                + safetyFactor + " × G, with " + coResident + " bytes of co-resident producer batches); " + why
                + ", more than the worker memory limit of " + limit + " bytes; add workers, raise the workers' memory limit or reduce the groups");
    }

    /** The planned {@code P_c} first, then (when allowed) the others from half to twice it, nearest first. */
    static List<Integer> partitionChoices(int planned, boolean mayChoose) {
        List<Integer> choices = new ArrayList<>(List.of(planned));
        if (mayChoose) {
            for (int distance = 1; planned + distance <= 2 * planned; distance++) {
                if (planned - distance >= Math.max(1, (planned + 1) / 2)) {
                    choices.add(planned - distance);
                }
                choices.add(planned + distance);
            }
        }
        return choices;
    }

    /**
     * Whether the boundary is the only stage input of its consumer: a {@code P_c} of the handler's
     * own would otherwise have to match the consumer's other partitioned inputs.
     */
    private static boolean onlyInput(StageBoundary boundary) {
        return stageInputs(boundary.consumerFragment()) == 1;
    }

    /**
     * One consumer task's peak aggregate state: P_c tables of {@code G/(n·P_c)} groups, each at the
     * engine's power-of-two capacity. The engine grows a table to hold its groups plus the rows of
     * the batch at hand; the batches a FINAL aggregate reads are partial-aggregate rows split over
     * {@code P_c × n} hash partitions, nearly all of them new groups, so that headroom is not added
     * (measured against TPC-H lineitem keys at SF 0.01 and 0.1, this formula gives the engine's
     * reservation peak exactly; see AggregateMemorySizingHandlerTest).
     */
    static long taskBytes(long groups, int tasks, int partitions, long bytesPerGroup) {
        return new GroupState(groups, bytesPerGroup, 0, List.of()).taskBytes(1.0, tasks, partitions);
    }

    /**
     * The grouped FINAL or SINGLE aggregate of the consumer fragment that reads this boundary's
     * shuffle, if any: FINAL above a partial one, SINGLE where the rows are shuffled as they are
     * ({@code COUNT(DISTINCT x) ... GROUP BY k}, {@code UNION} and {@code SELECT DISTINCT}).
     */
    static Optional<HashAggregateExec> finalAggregate(StageBoundary boundary) {
        if (boundary.kind() != BoundaryKind.SHUFFLE) {
            return Optional.empty();
        }
        return find(boundary.consumerFragment(), boundary.producerStageId());
    }

    private static Optional<HashAggregateExec> find(ExecutionPlan plan, int producerStageId) {
        return PlanTree.first(plan, node -> node instanceof HashAggregateExec aggregate && aggregate.mode() != AggregateMode.PARTIAL
                && !aggregate.groupExprs().isEmpty() && reads(aggregate.input(), producerStageId)).map(HashAggregateExec.class::cast);
    }

    private static boolean reads(ExecutionPlan plan, int producerStageId) {
        return PlanTree.anyMatch(plan, node -> node instanceof StageInputExec input && input.producerStageId() == producerStageId);
    }

    /** The session's {@code batch_size}: the rows of a producer batch. */
    private static long batchRows(StageBoundary boundary) {
        return boundary.settings().get(EngineSettings.BATCH_SIZE);
    }

    private static int stageInputs(ExecutionPlan plan) {
        return PlanTree.nodesOf(plan, StageInputExec.class).size();
    }

    private static long ceilDiv(long a, long b) {
        return -Math.floorDiv(-a, b);
    }
}
