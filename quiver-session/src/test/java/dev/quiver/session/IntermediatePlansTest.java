package dev.quiver.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.distributed.aqe.StageDecision;
import dev.quiver.distributed.event.DynamicStageBuiltEvent;
import dev.quiver.distributed.event.DynamicStageBuiltEventResponse;
import dev.quiver.distributed.event.StageEventHandler;
import dev.quiver.distributed.handler.AggregateMemorySizingHandler;
import dev.quiver.distributed.operator.BoundaryKind;
import dev.quiver.distributed.plan.DistributedPlan;
import dev.quiver.distributed.plan.DistributedPlannerSettings;
import dev.quiver.distributed.plan.Stage;
import dev.quiver.distributed.plan.StageConsistency;
import dev.quiver.distributed.plan.StageFragment;
import dev.quiver.distributed.plan.StageOutput;
import dev.quiver.distributed.plan.TaskCountHint;
import dev.quiver.distributed.planner.BoundaryRequirements;
import dev.quiver.distributed.planner.DistributedPlanner;
import dev.quiver.distributed.planner.ShuffleLayout;
import dev.quiver.distributed.planner.StageEventDispatcher;
import dev.quiver.distributed.planner.StageEvents;
import dev.quiver.distributed.planner.StagePlanningLoop;
import dev.quiver.engine.config.EngineSettings;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.Partitioning;
import dev.quiver.engine.operator.exchange.RepartitionExec;
import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.engine.source.tpch.TpchQueries;
import dev.quiver.session.tpch.AnswerFile;
import dev.quiver.session.tpch.ResultComparator;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every intermediate plan of the stage-planning loop runs and gives the query's answer (the TPC-H
 * answer files; DuckDB for a window and a WITH RECURSIVE query): the plan after the preparatory
 * passes, run on one node; the plan just after cutting; and the plan after each stage is sized
 * and rewritten by the stage-event handlers. A plan mid-loop is the loop's own sized stages (taken
 * from its listener, as the coordinator takes them under AQE) followed by the stages not sized
 * yet as they were cut, each run as one task reading its inputs with the {@code P_c} its sized
 * producers write. Each passes {@link StageConsistency} and runs through {@link LocalStageRunner}
 * (every task plan through the plan codec, as a worker decodes it). 4 workers, P = 3, every scan
 * split, and handlers that change what they may: one rewrites every producer (a round-robin
 * repartition on top, so P_p changes) and requires 3 consumer tasks of 2 partitions at every
 * shuffle it can; with collect-left joins planned partitioned, the reference handler sizes the
 * aggregates for workers of little memory.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class IntermediatePlansTest {
    private static final int WORKERS = 4;
    private static final DistributedPlannerSettings SETTINGS = DistributedPlannerSettings.defaults(WORKERS, 3).withBytesPerPartitionForScans(1);
    private static final String WINDOW = "select id, row_number() over (partition by g order by id) as rn, sum(v) over (partition by g order by o, id) as s from w";
    private static final String RECURSIVE = "with recursive r(n, g) as (select id, g from w where id <= 5 union all select n + 50, g from r where n < 400) "
            + "select r.n, r.g, w.v from r join w on r.n = w.id";

    /**
     * Which handlers answer and under what: whether collect-left joins broadcast, each worker's
     * memory and the batch size the reference handler counts producer batches with (small, so that
     * 3 MiB workers split some aggregates over several tasks).
     */
    enum Handlers {
        REWRITE_AND_EXACT(true, 256L << 20, EngineSettings.BATCH_SIZE.defaultValue()),
        REFERENCE_PARTITIONED(false, 3L << 20, 256);

        final boolean broadcastJoins;
        final long workerMemory;
        final int batchSize;

        Handlers(boolean broadcastJoins, long workerMemory, int batchSize) {
            this.broadcastJoins = broadcastJoins;
            this.workerMemory = workerMemory;
            this.batchSize = batchSize;
        }

        DistributedPlannerSettings settings() {
            DistributedPlannerSettings settings = SETTINGS.withBroadcastJoins(broadcastJoins);
            return new DistributedPlannerSettings(WORKERS, settings.settings().with(EngineSettings.BATCH_SIZE, batchSize));
        }
    }

    private TpchCatalog generator;
    private MemoryCatalog windows;
    private DuckDbOracle duckdb;
    private LocalStageRunner runner;

    @BeforeAll
    void start() throws SQLException {
        generator = TpchCatalog.cached(0.01, 256L << 20);
        windows = WindowTables.catalog();
        duckdb = new DuckDbOracle(windows);
        runner = new LocalStageRunner(SqlPlanCodec.builder().tpchCatalogs(sf -> generator).build());
    }

    @AfterAll
    void stop() throws SQLException {
        try (TpchCatalog closedLast = generator; DuckDbOracle oracle = duckdb; LocalStageRunner closedFirst = runner) {
            // the runner's allocator checks for leaks before the catalog's cache goes
        }
    }

    static Stream<Arguments> queries() {
        List<Arguments> queries = new ArrayList<>();
        for (Handlers handlers : Handlers.values()) {
            TpchQueries.NUMBERS.forEach(query -> queries.add(Arguments.of("q" + query, handlers)));
            queries.add(Arguments.of("window", handlers));
            queries.add(Arguments.of("recursive", handlers));
        }
        return queries.stream();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("queries")
    void everyIntermediatePlanGivesTheAnswer(String query, Handlers handlers) throws SQLException {
        ExecutionPlan single = singleNode(query);
        Answer answer = answer(query, single);
        DistributedPlanner planner = new DistributedPlanner(handlers.settings());

        answer.check("the prepared single-node plan", runner.runSingleNode(planner.prepare(single)));

        List<StageFragment> cut = planner.cut(single);
        answer.check("the plan as cut", runner.run(midLoop(planner, single, cut, List.of())));
        List<Stage> sized = new ArrayList<>();
        StagePlanningLoop.Listener listener = new StagePlanningLoop.Listener() {
            @Override
            public void sized(Stage stage, Optional<StageDecision> decision) {
                assertThat(stage.stageId()).as("stages are sized in the order they were cut").isEqualTo(sized.size());
                sized.add(stage);
                answer.check("the plan after sizing stage " + stage.stageId(), runner.run(midLoop(planner, single, cut, sized)));
            }
        };
        StageEvents events = StageEvents.of(new StageEventDispatcher(handlers(handlers)), "q", Collections.nCopies(WORKERS, handlers.workerMemory));
        StagePlanningLoop.Result result = new StagePlanningLoop(planner, planner.estimatedStatistics(), events, listener).run(single).orElseThrow();

        assertThat(sized).as("the loop's result is the last intermediate plan").isEqualTo(result.plan().stages());
        assertHandlersShowed(result, handlers);
    }

    /** The handlers' answers are in the plans that ran: every exact count and its P_c kept; with the rewriter, every producer it saw rewritten. */
    private static void assertHandlersShowed(StagePlanningLoop.Result result, Handlers handlers) {
        for (Map.Entry<Integer, BoundaryRequirements> required : result.requirements().entrySet()) {
            Stage producer = result.plan().stage(required.getKey());
            StageOutput output = producer.output().orElseThrow();
            required.getValue().exact().ifPresent(exact -> assertThat(result.plan().stage(output.consumerStageId()).taskCount())
                    .as("consumer of stage %d (%s)", producer.stageId(), exact).isEqualTo(exact.taskCount()));
            required.getValue().partitionsPerConsumerTask().ifPresent(pc -> assertThat(output.partitionsPerConsumerTask())
                    .as("P_c of stage %d", producer.stageId()).isEqualTo(pc));
            if (handlers == Handlers.REWRITE_AND_EXACT) {
                assertThat(producer.plan()).as("stage %d as rewritten", producer.stageId()).isInstanceOf(RepartitionExec.class);
                required.getValue().exact().ifPresent(exact -> assertThat(exact.taskCount()).isEqualTo(3));
            }
        }
    }

    /**
     * The loop's plan once {@code sized} (the first stages of {@code cut}) are sized: those, then
     * every other fragment as cut, one task each, its shuffle inputs read with the {@code P_c} the
     * producers' outputs say.
     */
    private static DistributedPlan midLoop(DistributedPlanner planner, ExecutionPlan single, List<StageFragment> cut, List<Stage> sized) {
        List<Stage> stages = new ArrayList<>(sized);
        for (StageFragment fragment : cut.subList(sized.size(), cut.size())) {
            Map<Integer, Integer> partitions = new LinkedHashMap<>();
            for (Stage producer : stages) {
                producer.output().filter(out -> out.kind() == BoundaryKind.SHUFFLE && out.consumerStageId() == fragment.stageId())
                        .ifPresent(out -> partitions.put(producer.stageId(), out.partitionsPerConsumerTask()));
            }
            StageFragment read = ShuffleLayout.withInputPartitions(fragment, partitions);
            stages.add(planner.size(read, stages, List.of(TaskCountHint.exact(1, "not sized yet: one task"))));
        }
        DistributedPlan plan = new DistributedPlan(single, stages);
        StageConsistency.check(plan);
        return plan;
    }

    private List<StageEventHandler> handlers(Handlers handlers) {
        if (handlers == Handlers.REFERENCE_PARTITIONED) {
            return List.of(new AggregateMemorySizingHandler());
        }
        return List.of(new RoundRobinOnTop(), new ThreeTasksAtShuffles());
    }

    /** Rewrites every producer it sees: a round-robin repartition into one more partition on top (the producer's P_p changes). */
    private static final class RoundRobinOnTop implements StageEventHandler {
        @Override
        public String name() {
            return "round-robin-on-top";
        }

        @Override
        public DynamicStageBuiltEventResponse onStageBuilt(DynamicStageBuiltEvent event) {
            ExecutionPlan producer = event.producerPlan();
            return DynamicStageBuiltEventResponse.rewritten(new RepartitionExec(producer,
                    new Partitioning.RoundRobin(producer.outputPartitioning().partitionCount() + 1)));
        }
    }

    /** Requires 3 consumer tasks of 2 partitions at every shuffle whose consumer has no exact count of its own. */
    private static final class ThreeTasksAtShuffles implements StageEventHandler {
        @Override
        public String name() {
            return "three-tasks";
        }

        @Override
        public DynamicStageBuiltEventResponse onStageBuilt(DynamicStageBuiltEvent event) {
            boolean free = event.boundary().consumerHints().stream().noneMatch(TaskCountHint.Exact.class::isInstance);
            return event.boundary().kind() == BoundaryKind.SHUFFLE && free
                    ? DynamicStageBuiltEventResponse.unchanged().withExactConsumerTasks(3, 2) : DynamicStageBuiltEventResponse.unchanged();
        }
    }

    private ExecutionPlan singleNode(String query) {
        return switch (query) {
            case "window" -> QueryPlanning.plan(windows, Map.of(), TestSettings.withPartitions(3), WINDOW);
            case "recursive" -> QueryPlanning.plan(windows, Map.of(), TestSettings.withPartitions(3), RECURSIVE);
            default -> TpchDistributedPlanningTest.singleNode(Integer.parseInt(query.substring(1)), generator);
        };
    }

    private Answer answer(String query, ExecutionPlan single) throws SQLException {
        return switch (query) {
            case "window" -> new Answer(query, single, Optional.of(duckdb.query(WINDOW)), List.of());
            case "recursive" -> new Answer(query, single, Optional.of(duckdb.query(RECURSIVE)), List.of());
            default -> new Answer(query, single, Optional.empty(), AnswerFile.parse(TpchQueries.answer(Integer.parseInt(query.substring(1)))).rows());
        };
    }

    /** The answer to compare with: DuckDB's rows in any order, or a TPC-H answer file. */
    private record Answer(String query, ExecutionPlan single, Optional<List<List<Object>>> duckdb, List<List<Object>> tpch) {
        void check(String step, List<List<Object>> rows) {
            String label = query + ", " + step;
            if (duckdb.isPresent()) {
                assertThat(DuckDbOracle.normalize(rows)).as(label).containsExactlyInAnyOrderElementsOf(duckdb.get());
            } else {
                ResultComparator.assertMatches(label, single.schema(), rows, tpch);
            }
        }
    }
}
