package dev.quiver.session.distributed;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.distributed.config.DistributedSettings;
import dev.quiver.distributed.coordinator.FinalPlan;
import dev.quiver.distributed.coordinator.spi.QueryEvent;
import dev.quiver.distributed.event.DynamicStageBuiltEvent;
import dev.quiver.distributed.event.DynamicStageBuiltEventResponse;
import dev.quiver.distributed.event.StageBoundary;
import dev.quiver.distributed.event.StageEventHandler;
import dev.quiver.distributed.event.StageSampledEvent;
import dev.quiver.distributed.event.StageSampledEventResponse;
import dev.quiver.distributed.operator.BoundaryKind;
import dev.quiver.distributed.plan.Stage;
import dev.quiver.distributed.plan.TaskCountHint;
import dev.quiver.distributed.protocol.OperatorMetricsSnapshot;
import dev.quiver.distributed.protocol.TaskReport;
import dev.quiver.distributed.protocol.TaskState;
import dev.quiver.engine.config.EngineSettings;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.expr.ColumnExpr;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.operator.ProjectionExec;
import dev.quiver.engine.operator.exchange.PartitionHash;
import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.session.QuerySession;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.apache.arrow.vector.types.pojo.Field;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Exact consumer task counts through a {@link QuerySession} with stage-event handlers, on one
 * 4-worker local cluster over TPC-H SF 0.01, in static and in adaptive mode
 * ({@code distributed.dynamic_task_count}): one test or more per semantics bullet of issue 6, and
 * the adaptive loop's events around them (one {@code StageCosted}/{@code StageSized} per stage after
 * a rewrite; {@code StageSampled} after its stage's {@code StageDispatched}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ExactConsumerSessionTest {
    private static final int WORKERS = 4;
    private static final String GROUP_BY = "SELECT l_suppkey, count(*) AS n, sum(l_quantity) AS q FROM lineitem GROUP BY l_suppkey";
    /** 2,000 groups at SF 0.01: enough that each consumer task's share of the hash partitions is visible. */
    private static final String BY_PART = "SELECT l_partkey, count(*) AS n FROM lineitem GROUP BY l_partkey";

    private final ScriptedHandler first = new ScriptedHandler("first");
    private final ScriptedHandler second = new ScriptedHandler("second");
    private final List<QueryEvent> heard = new CopyOnWriteArrayList<>();
    private TpchCatalog catalog;
    private QuerySession session;
    private QuerySession singleNode;

    @BeforeAll
    void start() {
        catalog = TpchCatalog.cached(0.01, 256L << 20);
        session = QuerySession.builder().catalog(catalog).targetPartitions(2).localWorkers(WORKERS).stageEventHandler(first).stageEventHandler(second)
                .queryEventListener(heard::add).build();
        singleNode = QuerySession.builder().catalog(catalog).targetPartitions(2).build();
        session.registerTable(OpaqueTable.of("opaque_keys", 10));
    }

    @AfterAll
    void stop() {
        try (TpchCatalog closedLast = catalog; QuerySession closedSecond = singleNode; QuerySession closedFirst = session) {
            assertNothingLeftOnWorkers();
        }
    }

    private void reset(boolean adaptive) {
        first.respond(event -> DynamicStageBuiltEventResponse.unchanged());
        second.respond(event -> DynamicStageBuiltEventResponse.unchanged());
        first.respondToSamples(event -> StageSampledEventResponse.unchanged());
        session.execute("SET distributed.dynamic_task_count = " + adaptive).close();
        session.execute("SET distributed.broadcast_joins = true").close();
    }

    @ParameterizedTest(name = "adaptive={0}")
    @ValueSource(booleans = {false, true})
    void anExactCountBeatsTheAdvisoryOneAndTheConsumerRunsExactlyNTasks(boolean adaptive) {
        reset(adaptive);
        DistributedRun advisory = DistributedRun.query(session, GROUP_BY);
        // what the advisory count (static scan hint, or AQE from the cost / sample) gives this small input
        assertThat(aggregateStage(advisory.finalPlan()).taskCount()).isEqualTo(1);

        first.respond(shuffles(event -> DynamicStageBuiltEventResponse.unchanged().withExactConsumerTasks(3)));
        DistributedRun exact = DistributedRun.query(session, GROUP_BY);
        Stage consumer = aggregateStage(exact.finalPlan());
        assertThat(consumer.taskCount()).isEqualTo(3);
        assertThat(consumer.taskCountHint()).isInstanceOf(TaskCountHint.Exact.class);
        assertThat(consumer.taskCountHint().origin()).startsWith("handler first (stage ");
        assertThat(exact.finalPlan().reportsOf(consumer.stageId())).hasSize(3).allSatisfy(r -> assertThat(r.state()).isEqualTo(TaskState.FINISHED));
        DistributedRun.assertSucceeded(exact.finalPlan());
        assertThat(exact.result().rows()).containsExactlyInAnyOrderElementsOf(singleNode.executeScript(GROUP_BY).rows());
        assertNothingLeftOnWorkers();
    }

    @ParameterizedTest(name = "adaptive={0}")
    @ValueSource(booleans = {false, true})
    void aPcOfItsOwnSetsTheProducersHashPartitionsAndEachConsumerTaskReadsItsRange(boolean adaptive) {
        reset(adaptive);
        // n=3 consumer tasks of P_c=3 partitions, not the session's target_partitions (2): the producers write Hash(l_partkey, 9)
        first.respond(shuffles(event -> DynamicStageBuiltEventResponse.unchanged().withExactConsumerTasks(3, 3)));
        DistributedRun run = DistributedRun.query(session, BY_PART);
        FinalPlan done = run.finalPlan();
        DistributedRun.assertSucceeded(done);
        Stage consumer = aggregateStage(done);
        assertThat(consumer.taskCount()).isEqualTo(3);
        assertThat(consumer.partitionsPerTask()).isEqualTo(3);
        Stage producer = done.plan().stage(consumer.inputStageIds().get(0));
        assertThat(producer.output().orElseThrow().kind()).isEqualTo(BoundaryKind.SHUFFLE);
        assertThat(producer.output().orElseThrow().partitionsPerConsumerTask()).isEqualTo(3);
        assertThat(producer.partitionsPerTask()).isEqualTo(2);

        List<List<Object>> expected = singleNode.executeScript(BY_PART).rows();
        // consumer task t holds exactly the groups whose key the engine's partition hash sends to [3t, 3t+3) of 9 partitions:
        // what the workers measured can only come out so if every producer task wrote 9 partitions and task t read its 3
        long[] groupsPerTask = new long[3];
        for (List<Object> row : expected) {
            groupsPerTask[PartitionHash.partition(PartitionHash.hashValue(row.get(0), PartitionHash.SEED), 9) / 3]++;
        }
        long produced = done.reportsOf(producer.stageId()).stream().mapToLong(r -> r.metrics().get(0).outputRows()).sum();
        long received = 0;
        for (TaskReport report : done.reportsOf(consumer.stageId())) {
            long groups = report.metrics().stream().filter(node -> node.name().equals("HashAggregateExec")).mapToLong(OperatorMetricsSnapshot::outputRows).sum();
            assertThat(groups).as("groups of consumer task %s", report.taskId()).isEqualTo(groupsPerTask[report.taskId().taskIndex()]).isPositive();
            received += report.metrics().stream().filter(node -> node.name().equals("StageInputExec")).mapToLong(OperatorMetricsSnapshot::outputRows).sum();
        }
        // every producer row reached exactly one consumer task
        assertThat(received).isEqualTo(produced).isPositive();
        assertThat(run.result().rows()).containsExactlyInAnyOrderElementsOf(expected);
        String analyzed = (String) session.executeScript("EXPLAIN ANALYZE " + BY_PART).rows().get(0).get(0);
        assertThat(analyzed).contains("Exact(3) from handler first").contains("with P_c=3").contains("], 9) → consumer task t reads [3t, 3t+3)");
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void handlersReadTheSessionsSettingsTyped(boolean adaptive) {
        reset(adaptive);
        List<StageBoundary> built = new CopyOnWriteArrayList<>();
        List<StageBoundary> sampled = new CopyOnWriteArrayList<>();
        first.respond(event -> {
            built.add(event.boundary());
            return DynamicStageBuiltEventResponse.unchanged();
        });
        first.respondToSamples(event -> {
            sampled.add(event.boundary());
            return StageSampledEventResponse.unchanged();
        });
        session.executeScript("SET batch_size = 1000; SET distributed.sample_bytes_per_partition = '2MiB'");
        try {
            DistributedRun.assertSucceeded(DistributedRun.query(session, BY_PART).finalPlan());
        } finally {
            session.executeScript("SET batch_size = 8192; SET distributed.sample_bytes_per_partition = '1MiB'");
        }
        assertThat(built).isNotEmpty();
        assertThat(sampled).hasSize(adaptive ? built.size() : 0);
        for (StageBoundary boundary : concat(built, sampled)) {
            assertThat(boundary.settings().get(EngineSettings.BATCH_SIZE)).isEqualTo(1000);
            assertThat(boundary.settings().get(DistributedSettings.SAMPLE_BYTES_PER_PARTITION)).isEqualTo(2L << 20);
            assertThat(boundary.settings().get(DistributedSettings.DYNAMIC_TASK_COUNT)).isEqualTo(adaptive);
        }
    }

    private static List<StageBoundary> concat(List<StageBoundary> a, List<StageBoundary> b) {
        List<StageBoundary> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    @Test
    void inAdaptiveModeAPcSetAtStageBuiltStaysWhenTheSampledCountReplacesTheExact() {
        reset(true);
        List<StageSampledEvent> samples = new CopyOnWriteArrayList<>();
        first.respond(shuffles(event -> DynamicStageBuiltEventResponse.unchanged().withExactConsumerTasks(2, 3)));
        first.respondToSamples(event -> {
            samples.add(event);
            return StageSampledEventResponse.exactConsumerTasks(4);
        });
        DistributedRun run = DistributedRun.query(session, BY_PART);
        DistributedRun.assertSucceeded(run.finalPlan());
        // the producer already runs with its P_c: the sampled event says so, and the consumer reads 3 partitions in each of its 4 tasks
        assertThat(samples).hasSize(1).allSatisfy(event -> assertThat(event.boundary().partitionsPerConsumerTask()).isEqualTo(3));
        Stage consumer = aggregateStage(run.finalPlan());
        assertThat(consumer.taskCount()).isEqualTo(4);
        assertThat(consumer.partitionsPerTask()).isEqualTo(3);
        assertThat(run.finalPlan().plan().stage(consumer.inputStageIds().get(0)).output().orElseThrow().partitionsPerConsumerTask()).isEqualTo(3);
        assertThat(run.result().rows()).containsExactlyInAnyOrderElementsOf(singleNode.executeScript(BY_PART).rows());
    }

    @Test
    void inAdaptiveModeTheSampledCountReplacesTheHandlersStageBuiltOne() {
        reset(true);
        List<StageSampledEvent> samples = new CopyOnWriteArrayList<>();
        first.respond(shuffles(event -> DynamicStageBuiltEventResponse.unchanged().withExactConsumerTasks(2)));
        first.respondToSamples(event -> {
            samples.add(event);
            return StageSampledEventResponse.exactConsumerTasks(3);
        });
        DistributedRun run = DistributedRun.query(session, GROUP_BY);
        assertThat(samples).hasSize(1).allSatisfy(event -> assertThat(event.sampled().rows()).isPositive());
        Stage consumer = aggregateStage(run.finalPlan());
        assertThat(consumer.taskCount()).isEqualTo(3);
        assertThat(run.finalPlan().reportsOf(consumer.stageId())).hasSize(3);
        assertThat(run.result().rows()).containsExactlyInAnyOrderElementsOf(singleNode.executeScript(GROUP_BY).rows());
    }

    @ParameterizedTest(name = "adaptive={0}")
    @ValueSource(booleans = {false, true})
    void twoHandlersWithDifferentExactsFailNamingBoth(boolean adaptive) {
        reset(adaptive);
        first.respond(shuffles(event -> DynamicStageBuiltEventResponse.unchanged().withExactConsumerTasks(2)));
        second.respond(shuffles(event -> DynamicStageBuiltEventResponse.unchanged().withExactConsumerTasks(3)));
        assertConflict(GROUP_BY, "handler first", "handler second");
    }

    @ParameterizedTest(name = "adaptive={0}")
    @ValueSource(booleans = {false, true})
    void twoInputsOfAJoinWithDifferentExactsFailNamingBoth(boolean adaptive) {
        reset(adaptive);
        session.execute("SET distributed.broadcast_joins = false").close();
        first.respond(shuffles(event -> DynamicStageBuiltEventResponse.unchanged().withExactConsumerTasks(event.boundary().producerStageId() + 2)));
        heard.clear();
        assertConflict("SELECT count(*) FROM orders JOIN lineitem ON o_orderkey = l_orderkey", "handler first (stage 0 → stage 2)",
                "handler first (stage 1 → stage 2)");
        // under AQE too the second input's stage-built event finds the conflict before either input is dispatched
        assertNothingDispatched();
    }

    @ParameterizedTest(name = "adaptive={0}")
    @ValueSource(booleans = {false, true})
    void anExactAgainstAOneTaskConsumerFailsNamingBoth(boolean adaptive) {
        reset(adaptive);
        first.respond(shuffles(event -> DynamicStageBuiltEventResponse.unchanged().withExactConsumerTasks(3)));
        heard.clear();
        assertConflict("SELECT a.l_suppkey, n.n_name FROM (" + GROUP_BY + ") a FULL JOIN nation n ON a.n > n.n_nationkey * 100",
                "handler first", "NestedLoopJoinExec(FULL)");
        assertNothingDispatched();
    }

    @ParameterizedTest(name = "adaptive={0}")
    @ValueSource(booleans = {false, true})
    void anExactAgainstAnUnsplittableLeafInTheConsumerFailsNamingBothBeforeDispatch(boolean adaptive) {
        reset(adaptive);
        // the union's stage reads the GROUP BY's shuffle and scans opaque_keys, which has no TaskEstimator: Exact(1)
        String sql = "SELECT l_suppkey AS k FROM lineitem GROUP BY l_suppkey UNION ALL SELECT k FROM opaque_keys";
        String explained = (String) session.executeScript("SET distributed.dynamic_task_count = false; EXPLAIN " + sql).rows().get(0).get(0);
        session.execute("SET distributed.dynamic_task_count = " + adaptive).close();
        assertThat(explained).contains("OpaqueScanExec has no TaskEstimator");
        first.respond(shuffles(event -> DynamicStageBuiltEventResponse.unchanged().withExactConsumerTasks(3)));
        heard.clear();
        assertConflict(sql, "handler first", "OpaqueScanExec has no TaskEstimator");
        // the conflict is found at the producer's stage-built event: nothing of the query reached a worker
        assertNothingDispatched();
    }

    @ParameterizedTest(name = "adaptive={0}")
    @ValueSource(booleans = {false, true})
    void anExactAboveTheLimitFailsBeforeDispatchAndExactlyAtTheLimitRuns(boolean adaptive) {
        reset(adaptive);
        first.respond(shuffles(event -> DynamicStageBuiltEventResponse.unchanged().withExactConsumerTasks(WORKERS + 1)));
        heard.clear();
        assertThatThrownBy(() -> DistributedRun.query(session, GROUP_BY))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.TASK_COUNT_CONFLICT))
                .hasMessageContaining("handler first").hasMessageContaining("exactly " + (WORKERS + 1))
                .hasMessageContaining("distributed.max_tasks_per_stage");
        // the producer is the first stage of this query: nothing of it reached a worker
        assertNothingDispatched();
        assertNothingLeftOnWorkers();

        first.respond(shuffles(event -> DynamicStageBuiltEventResponse.unchanged().withExactConsumerTasks(WORKERS)));
        DistributedRun atLimit = DistributedRun.query(session, GROUP_BY);
        assertThat(aggregateStage(atLimit.finalPlan()).taskCount()).isEqualTo(WORKERS);
        assertThat(atLimit.result().rows()).containsExactlyInAnyOrderElementsOf(singleNode.executeScript(GROUP_BY).rows());
    }

    @ParameterizedTest(name = "adaptive={0}")
    @ValueSource(booleans = {false, true})
    void aLimitOverAnExactConsumerLeavesEveryTaskTerminal(boolean adaptive) {
        reset(adaptive);
        first.respond(shuffles(event -> DynamicStageBuiltEventResponse.unchanged().withExactConsumerTasks(WORKERS)));
        String sql = "SELECT o_custkey, count(*) AS n FROM orders GROUP BY o_custkey LIMIT 5";
        Map<TaskState, Integer> consumerStates = new EnumMap<>(TaskState.class);
        long timeoutsBefore = session.coordinatorMetrics().orElseThrow().metricsFinalizationTimeouts();
        for (int run = 0; run < 50; run++) {
            DistributedRun result = DistributedRun.query(session, sql);
            assertThat(result.result().rows()).hasSize(5);
            DistributedRun.assertSucceeded(result.finalPlan());
            Stage consumer = aggregateStage(result.finalPlan());
            assertThat(result.finalPlan().reportsOf(consumer.stageId())).as("run %d", run).hasSize(WORKERS);
            result.finalPlan().reportsOf(consumer.stageId()).forEach(r -> consumerStates.merge(r.state(), 1, Integer::sum));
        }
        // the head reads the consumer's tasks in order and the first one meets the LIMIT: the other 3 of each run never send their
        // output — statically they never execute (SKIPPED); under AQE their samplers executed them, and the end of the query stops them
        TaskState notRead = adaptive ? TaskState.CANCELLED : TaskState.SKIPPED;
        assertThat(consumerStates.getOrDefault(notRead, 0)).as("consumer task states over 50 runs: %s", consumerStates).isGreaterThanOrEqualTo(150);
        assertThat(consumerStates).as("consumer task states over 50 runs").doesNotContainKey(TaskState.FAILED);
        if (!adaptive) {
            assertThat(consumerStates).containsEntry(TaskState.SKIPPED, 150);
        }
        String analyzed = (String) session.executeScript("EXPLAIN ANALYZE " + sql).rows().get(0).get(0);
        assertThat(analyzed).containsAnyOf("SKIPPED", "CANCELLED").contains("Exact(" + WORKERS + ") from handler first");
        assertThat(session.coordinatorMetrics().orElseThrow().metricsFinalizationTimeouts()).isEqualTo(timeoutsBefore).isZero();
        assertNothingLeftOnWorkers();
    }

    @Test
    void aRewrittenProducerIsCostedAndSizedOnceWithTheDecisionItRunsWith() {
        reset(true);
        List<DynamicStageBuiltEvent> built = new CopyOnWriteArrayList<>();
        first.respond(shuffles(event -> {
            built.add(event);
            return DynamicStageBuiltEventResponse.rewritten(identityProjection(event.producerPlan()));
        }));
        DistributedRun run = DistributedRun.query(session, GROUP_BY);
        FinalPlan done = run.finalPlan();
        DistributedRun.assertSucceeded(done);
        List<QueryEvent> events = eventsOf(done.queryId());
        for (Stage stage : done.plan().stages()) {
            List<QueryEvent.StageCosted> costed = events.stream().filter(QueryEvent.StageCosted.class::isInstance).map(QueryEvent.StageCosted.class::cast)
                    .filter(event -> event.stageId() == stage.stageId()).toList();
            List<QueryEvent.StageSized> sized = events.stream().filter(QueryEvent.StageSized.class::isInstance).map(QueryEvent.StageSized.class::cast)
                    .filter(event -> event.stageId() == stage.stageId()).toList();
            assertThat(costed).as("StageCosted of stage %d", stage.stageId()).hasSize(1);
            assertThat(sized).as("StageSized of stage %d", stage.stageId()).singleElement().satisfies(event -> {
                assertThat(event.taskCount()).isEqualTo(stage.taskCount());
                assertThat(event.partitionsPerTask()).isEqualTo(stage.partitionsPerTask());
                assertThat(event.hint()).isEqualTo(stage.taskCountHint());
            });
            assertThat(costed.get(0).costBytes()).isEqualTo(done.decisions().get(stage.stageId()).cost().costBytes());
        }
        assertThat(built).hasSize(1);
        Stage producer = done.plan().stage(built.get(0).boundary().producerStageId());
        assertThat(producer.taskPlans()).allSatisfy(plan -> assertThat(plan).isInstanceOf(ProjectionExec.class));
        // the cost announced is the rewritten plan's (the projection materializes its output on top of the original's cost)
        long announced = events.stream().filter(QueryEvent.StageCosted.class::isInstance).map(QueryEvent.StageCosted.class::cast)
                .filter(event -> event.stageId() == producer.stageId()).findFirst().orElseThrow().costBytes();
        assertThat(announced).isGreaterThan(built.get(0).producerCost().costBytes());
        assertThat(run.result().rows()).containsExactlyInAnyOrderElementsOf(singleNode.executeScript(GROUP_BY).rows());
    }

    @Test
    void inAdaptiveModeAStageIsDispatchedBeforeItIsSampledInEveryRun() {
        reset(true);
        long budget = session.settings().get(DistributedSettings.DYNAMIC_BYTES_PER_PARTITION);
        // a small budget gives the scan several tasks, so that early tasks' samples race the dispatch of the later ones
        session.execute("SET distributed.dynamic_bytes_per_partition = 65536").close();
        try {
            int sampledStages = 0;
            for (int run = 0; run < 30; run++) {
                FinalPlan done = DistributedRun.query(session, GROUP_BY).finalPlan();
                DistributedRun.assertSucceeded(done);
                List<QueryEvent> events = eventsOf(done.queryId());
                for (int i = 0; i < events.size(); i++) {
                    if (events.get(i) instanceof QueryEvent.StageSampled sampled) {
                        sampledStages++;
                        assertThat(events.subList(0, i)).as("run %d: stage events before stage %d's StageSampled: %s", run, sampled.stageId(),
                                events.subList(0, i).stream().filter(event -> !(event instanceof QueryEvent.TaskStateChanged)).toList())
                                .anyMatch(event -> event instanceof QueryEvent.StageDispatched dispatched && dispatched.stageId() == sampled.stageId());
                    }
                    if (events.get(i) instanceof QueryEvent.StageDispatched dispatched) {
                        assertThat(events.subList(0, i)).noneMatch(event -> event instanceof QueryEvent.StageSampled sampled && sampled.stageId() == dispatched.stageId());
                    }
                }
                assertThat(aggregateStage(done).taskCount()).isPositive();
                assertThat(done.plan().stages().get(0).taskCount()).as("run %d: scan tasks", run).isGreaterThan(1);
            }
            assertThat(sampledStages).isGreaterThanOrEqualTo(30);
        } finally {
            session.execute("SET distributed.dynamic_bytes_per_partition = " + budget).close();
        }
    }

    private List<QueryEvent> eventsOf(String queryId) {
        return heard.stream().filter(event -> event.queryId().equals(queryId)).toList();
    }

    /** {@code plan} under a projection of all its columns: a rewrite that keeps the schema and the inputs and costs more. */
    private static ExecutionPlan identityProjection(ExecutionPlan plan) {
        List<PhysicalExpr> columns = new ArrayList<>();
        List<String> names = new ArrayList<>();
        List<Field> fields = plan.schema().getFields();
        for (int i = 0; i < fields.size(); i++) {
            columns.add(new ColumnExpr(i, fields.get(i).getName(), fields.get(i).getType(), fields.get(i).isNullable()));
            names.add(fields.get(i).getName());
        }
        return new ProjectionExec(columns, names, plan);
    }

    private void assertConflict(String sql, String origin, String otherOrigin) {
        assertThatThrownBy(() -> DistributedRun.query(session, sql))
                .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.TASK_COUNT_CONFLICT))
                .hasMessageContaining(origin).hasMessageContaining(otherOrigin);
        assertNothingLeftOnWorkers();
    }

    /** The events since {@code heard} was cleared: the query dispatched no stage and no task reached a worker. */
    private void assertNothingDispatched() {
        assertThat(heard).as("events of the failed query")
                .noneMatch(event -> event instanceof QueryEvent.StageDispatched || event instanceof QueryEvent.TaskStateChanged);
    }

    private void assertNothingLeftOnWorkers() {
        DistributedRun.assertNothingLeftOnWorkers(session, Duration.ofSeconds(10));
    }

    /** The stage holding the grouped FINAL aggregate: the consumer of the GROUP BY's shuffle. */
    private static Stage aggregateStage(FinalPlan done) {
        return done.plan().stages().stream().filter(stage -> !stage.isHead() && stage.inputStageIds().size() == 1
                && done.plan().stage(stage.inputStageIds().get(0)).output().orElseThrow().kind() == BoundaryKind.SHUFFLE).findFirst().orElseThrow();
    }

    private static Function<DynamicStageBuiltEvent, DynamicStageBuiltEventResponse> shuffles(
            Function<DynamicStageBuiltEvent, DynamicStageBuiltEventResponse> response) {
        return event -> event.boundary().kind() == BoundaryKind.SHUFFLE ? response.apply(event) : DynamicStageBuiltEventResponse.unchanged();
    }

    /** A handler whose response each test sets. */
    private static final class ScriptedHandler implements StageEventHandler {
        private final String name;
        private volatile Function<DynamicStageBuiltEvent, DynamicStageBuiltEventResponse> response = event -> DynamicStageBuiltEventResponse.unchanged();
        private volatile Function<StageSampledEvent, StageSampledEventResponse> sampled = event -> StageSampledEventResponse.unchanged();

        ScriptedHandler(String name) {
            this.name = name;
        }

        void respond(Function<DynamicStageBuiltEvent, DynamicStageBuiltEventResponse> response) {
            this.response = response;
        }

        void respondToSamples(Function<StageSampledEvent, StageSampledEventResponse> sampled) {
            this.sampled = sampled;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public StageSampledEventResponse onStageSampled(StageSampledEvent event) {
            return sampled.apply(event);
        }

        @Override
        public DynamicStageBuiltEventResponse onStageBuilt(DynamicStageBuiltEvent event) {
            return response.apply(event);
        }
    }
}
