package dev.quiver.distributed.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.distributed.config.DistributedSettings;
import dev.quiver.distributed.config.RetryPolicy;
import dev.quiver.distributed.config.UnreachableWorkers;
import dev.quiver.distributed.coordinator.spi.QueryEvent;
import dev.quiver.distributed.coordinator.spi.QueryEvent.Outcome;
import dev.quiver.distributed.operator.BoundaryKind;
import dev.quiver.distributed.operator.StageInputExec;
import dev.quiver.distributed.plan.DistributedPlan;
import dev.quiver.distributed.plan.Stage;
import dev.quiver.distributed.plan.StageOutput;
import dev.quiver.distributed.plan.TaskCountHint;
import dev.quiver.distributed.protocol.OperatorMetricsSnapshot;
import dev.quiver.distributed.protocol.ProducerHead;
import dev.quiver.distributed.protocol.TaskError;
import dev.quiver.distributed.protocol.TaskRequest;
import dev.quiver.distributed.protocol.TaskState;
import dev.quiver.engine.batch.Batches;
import dev.quiver.engine.config.EngineSettings;
import dev.quiver.engine.config.Settings;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionConfig;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.QuiverExecutor;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.expr.ColumnExpr;
import dev.quiver.engine.memory.MemoryPool;
import dev.quiver.engine.operator.ValuesExec;
import dev.quiver.engine.operator.exchange.CoalescePartitionsExec;
import dev.quiver.engine.operator.limit.GlobalLimitExec;
import dev.quiver.engine.stats.Statistics;
import dev.quiver.engine.types.QuiverTypes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The coordinator's scheduling, events, ending and finalization against hand-written worker and
 * exchange doubles (the Flight transport is exercised end to end in quiver-session's distributed suites).
 */
class CoordinatorTest {
    private static final String VERSION = "test-1";
    private static final Schema SCHEMA = new Schema(List.of(QuiverTypes.field("task", QuiverTypes.INT32, false),
            QuiverTypes.field("port", QuiverTypes.INT32, false)));

    private final BufferAllocator allocator = new RootAllocator();
    private final QuiverExecutor executor = new QuiverExecutor("coordinator-test");
    private final List<FakeWorker> workers = List.of(new FakeWorker(9001, VERSION), new FakeWorker(9002, VERSION));
    private final FakeExchange exchange = new FakeExchange();
    private final List<QueryEvent> heard = new CopyOnWriteArrayList<>();
    private final Coordinator coordinator = new Coordinator(List.copyOf(workers), exchange,
            new CoordinatorConfig(VERSION, Duration.ofSeconds(20), Duration.ofMillis(500)), List.of(heard::add));
    private final List<TaskContext> contexts = new ArrayList<>();

    @AfterEach
    void close() {
        contexts.forEach(TaskContext::close);
        coordinator.close();
        executor.close();
        assertThat(allocator.getAllocatedMemory()).as("leaked Arrow memory").isZero();
        allocator.close();
        assertThat(workers).allMatch(w -> w.closed);
    }

    /** Stage 0: 3 tasks of 1 partition each, coalesced into the head stage 1. */
    private static DistributedPlan coalescePlan() {
        List<ExecutionPlan> producers = new ArrayList<>();
        for (int t = 0; t < 3; t++) {
            producers.add(new ValuesExec(SCHEMA, List.of(List.of(t, 0))));
        }
        Stage producer = new Stage(0, producers, 1, TaskCountHint.desired(3, "test"), Optional.of(new StageOutput(BoundaryKind.COALESCE, 1, List.of(), 3)),
                List.of());
        StageInputExec input = new StageInputExec(0, BoundaryKind.COALESCE, SCHEMA, List.of(), 3, 1, 1, 3, Statistics.unknown(SCHEMA), Optional.empty());
        Stage head = new Stage(1, List.of(input), 3, TaskCountHint.exact(1, "head stage"), Optional.empty(), List.of(0));
        return new DistributedPlan(new ValuesExec(SCHEMA, List.of()), List.of(producer, head));
    }

    /** Stage 0: 2 tasks shuffled on {@code task} into stage 1: 3 tasks of P_c = 2, coalesced into the head stage 2. */
    private static DistributedPlan shufflePlan(int consumerTasksSeenByInput) {
        ColumnExpr key = new ColumnExpr(0, "task", QuiverTypes.INT32, false);
        List<ExecutionPlan> producers = List.of(new ValuesExec(SCHEMA, List.of(List.of(0, 0))), new ValuesExec(SCHEMA, List.of(List.of(1, 0))));
        Stage producer = new Stage(0, producers, 1, TaskCountHint.desired(2, "test"), Optional.of(new StageOutput(BoundaryKind.SHUFFLE, 1, List.of(key), 2)),
                List.of());
        StageInputExec shuffle = new StageInputExec(0, BoundaryKind.SHUFFLE, SCHEMA, List.of(key), 2, 1, consumerTasksSeenByInput, 2,
                Statistics.unknown(SCHEMA), Optional.empty());
        Stage middle = new Stage(1, List.of(shuffle, shuffle, shuffle), 2, TaskCountHint.desired(3, "test"),
                Optional.of(new StageOutput(BoundaryKind.COALESCE, 2, List.of(), 6)), List.of(0));
        StageInputExec gather = new StageInputExec(1, BoundaryKind.COALESCE, SCHEMA, List.of(), 3, 2, 1, 6, Statistics.unknown(SCHEMA), Optional.empty());
        Stage head = new Stage(2, List.of(gather), 6, TaskCountHint.exact(1, "head stage"), Optional.empty(), List.of(1));
        return new DistributedPlan(new ValuesExec(SCHEMA, List.of()), List.of(producer, middle, head));
    }

    private DistributedQuery newQuery(DistributedPlan plan) {
        TaskContext context = new TaskContext("q1", allocator, MemoryPool.unlimited(), executor, new ExecutionConfig(1024, 2), coordinator.headServices());
        contexts.add(context);
        return coordinator.newQuery("q1", plan, context, DistributedSettings.TASK_REGISTRY.defaults().with(EngineSettings.BATCH_SIZE, 1024));
    }

    private static List<List<Object>> drain(BatchStream stream) {
        List<List<Object>> rows = new ArrayList<>();
        try (stream) {
            VectorSchemaRoot batch;
            while ((batch = stream.next()) != null) {
                try (VectorSchemaRoot owned = batch) {
                    rows.addAll(Batches.toRows(owned));
                }
            }
        }
        return rows;
    }

    @Test
    void dispatchesProducersFirstBindsInputsAndFinalizesWhenTheHeadEnds() throws Exception {
        DistributedQuery query = newQuery(coalescePlan());
        List<List<Object>> rows = drain(query.start());

        // three producer tasks, spread over both workers (at most ceil(3/2) = 2 each), each bound to the coalesce head
        List<TaskRequest> sent = workers.stream().flatMap(w -> w.requests.stream()).toList();
        assertThat(sent).hasSize(3).allMatch(r -> r.head().equals(Optional.of(new ProducerHead.Coalesce())) && r.version().equals(VERSION)
                && r.settings().equals(DistributedSettings.TASK_REGISTRY.defaults().with(EngineSettings.BATCH_SIZE, 1024)));
        assertThat(workers).allMatch(w -> w.requests.size() <= 2 && !w.requests.isEmpty());
        // the head read partition 0 of each producer task, from the worker that task was sent to
        List<List<Object>> expected = new ArrayList<>();
        for (FakeWorker worker : workers) {
            worker.requests.forEach(r -> expected.add(List.of(r.taskId().taskIndex(), worker.address().port())));
        }
        assertThat(rows).containsExactlyInAnyOrderElementsOf(expected);

        FinalPlan done = query.finalPlan().get(5, TimeUnit.SECONDS);
        assertThat(done.taskReports()).hasSize(3).allMatch(r -> r.state() == TaskState.SKIPPED);
        assertThat(done.headMetrics()).isNotEmpty();
        assertThat(done.failure()).isEmpty();
        assertThat(coordinator.metrics().metricsFinalizationTimeouts()).isZero();

        // events: stage 0 closed, sized, its tasks PLANNED and SENT, dispatched; then the head stage; then the end
        List<String> kinds = query.events().stream().map(CoordinatorTest::describe).toList();
        assertThat(kinds.subList(0, 2)).containsExactly("closed 0", "sized 0 tasks=3");
        assertThat(kinds).containsSubsequence("sized 0 tasks=3", "dispatched 0", "closed 1", "sized 1 tasks=1", "dispatched 1", "ended FINISHED");
        assertThat(kinds.subList(2, 8)).containsExactly("q1.s0.t0 PLANNED", "q1.s0.t0 SENT", "q1.s0.t1 PLANNED", "q1.s0.t1 SENT",
                "q1.s0.t2 PLANNED", "q1.s0.t2 SENT");
        assertThat(kinds).endsWith("q1.s0.t0 SKIPPED", "q1.s0.t1 SKIPPED", "q1.s0.t2 SKIPPED");
        assertThat(heard).containsExactlyElementsOf(query.events());
    }

    @Test
    void bindsShuffleHeadsAndEachConsumerTasksInputs() throws Exception {
        DistributedQuery query = newQuery(shufflePlan(3));
        drain(query.start());
        List<TaskRequest> sent = workers.stream().flatMap(w -> w.requests.stream()).toList();
        Map<Integer, dev.quiver.distributed.protocol.WorkerAddress> stage0Workers = new java.util.HashMap<>();
        for (FakeWorker worker : workers) {
            worker.requests.stream().filter(r -> r.taskId().stageId() == 0).forEach(r -> stage0Workers.put(r.taskId().taskIndex(), worker.address()));
        }
        ColumnExpr key = new ColumnExpr(0, "task", QuiverTypes.INT32, false);
        // producers are bound to Hash(keys, P_c × T_c) = 2 × 3, the consumers (coalesced into the head) to Coalesce
        assertThat(sent).filteredOn(r -> r.taskId().stageId() == 0).hasSize(2)
                .allMatch(r -> r.head().equals(Optional.of(new ProducerHead.Shuffle(List.of(key), 2, 3))));
        assertThat(sent).filteredOn(r -> r.taskId().stageId() == 1).hasSize(3)
                .allMatch(r -> r.head().equals(Optional.of(new ProducerHead.Coalesce())))
                .allSatisfy(r -> {
                    StageInputExec input = (StageInputExec) r.plan();
                    StageInputExec.Binding binding = input.binding().orElseThrow();
                    assertThat(binding.consumerTaskIndex()).isEqualTo(r.taskId().taskIndex());
                    assertThat(binding.producerWorkers()).containsExactly(stage0Workers.get(0), stage0Workers.get(1));
                    // consumer task t reads producer partitions [2t, 2t + 2) of every producer task
                    assertThat(input.sourcesOf(1)).extracting(source -> source.ticket().partition()).containsOnly(2 * r.taskId().taskIndex() + 1);
                });
        assertThat(query.finalPlan().get(5, TimeUnit.SECONDS).taskReports()).hasSize(5);
    }

    @Test
    void aConsumerInputThatDisagreesWithItsProducerStageFailsBeforeAnyTaskIsSent() throws Exception {
        DistributedQuery query = newQuery(shufflePlan(2));
        assertThatThrownBy(query::start).isInstanceOfSatisfying(QuiverException.class, e -> {
            assertThat(e.errorCode()).isEqualTo(ErrorCode.PLAN_ERROR);
            assertThat(e.getMessage()).contains("stage 1", "stage 0");
        });
        assertThat(workers).allMatch(w -> w.requests.isEmpty());
        assertThat(query.finalPlan().get(5, TimeUnit.SECONDS).taskReports()).isEmpty();
    }

    @Test
    void aLimitReadsProducerTasksInOrderAndNeverAsksForTheRest() throws Exception {
        DistributedPlan plan = coalescePlan();
        Stage head = plan.headStage();
        ExecutionPlan limited = new GlobalLimitExec(new CoalescePartitionsExec(head.plan()), 0, OptionalLong.of(1));
        DistributedPlan withLimit = new DistributedPlan(plan.singleNodePlan(), List.of(plan.stages().get(0),
                new Stage(head.stageId(), List.of(limited), 1, head.taskCountHint(), Optional.empty(), head.inputStageIds())));
        DistributedQuery query = newQuery(withLimit);
        assertThat(drain(query.start())).hasSize(1);
        // only producer task 0 was asked for data; tasks 1 and 2 were never executed
        assertThat(exchange.opened).extracting(source -> source.ticket().producerTask().taskIndex()).containsOnly(0);
        FinalPlan done = query.finalPlan().get(5, TimeUnit.SECONDS);
        assertThat(done.headMetrics()).extracting(OperatorMetricsSnapshot::name)
                .containsExactly("GlobalLimitExec", "CoalescePartitionsExec", "StageInputExec");
    }

    @Test
    void closingTheResultEarlyEndsEveryTask() throws Exception {
        DistributedQuery query = newQuery(coalescePlan());
        workers.get(0).executed.put(new dev.quiver.distributed.protocol.TaskId("q1", 0, 0), true);
        BatchStream results = query.start();
        results.close();
        FinalPlan done = query.finalPlan().get(5, TimeUnit.SECONDS);
        assertThat(done.count(TaskState.FINISHED)).isEqualTo(1);
        assertThat(done.count(TaskState.SKIPPED)).isEqualTo(2);
        assertThat(query.events()).filteredOn(e -> e instanceof QueryEvent.QueryEnded).singleElement()
                .isEqualTo(new QueryEvent.QueryEnded("q1", Outcome.CLOSED_EARLY, Optional.empty()));
    }

    @Test
    void aFailedTaskFailsTheQueryNamingStageAndWorkerWithItsCode() throws Exception {
        exchange.blocking = true;
        workers.get(1).failOnStart = new TaskError(ErrorCode.DIVISION_BY_ZERO, "Division by zero");
        DistributedQuery query = newQuery(coalescePlan());
        assertThatThrownBy(() -> drain(query.start()))
                .isInstanceOfSatisfying(QuiverException.class, e -> {
                    assertThat(e.errorCode()).isEqualTo(ErrorCode.DIVISION_BY_ZERO);
                    assertThat(e.getMessage()).contains("stage 0", "127.0.0.1:9002", "Division by zero");
                });
        FinalPlan done = query.finalPlan().get(5, TimeUnit.SECONDS);
        assertThat(done.failure()).isPresent();
        assertThat(done.taskReports()).allMatch(r -> r.state().isTerminal());
        assertThat(workers.get(0).ended).hasSameElementsAs(workers.get(0).requests.stream().map(TaskRequest::taskId).toList());
    }

    @Test
    void retriesAWorkerLossAtMostQueryRetryAttemptsTimesAndNeverAUserError() throws Exception {
        Settings settings = DistributedSettings.TASK_REGISTRY.defaults().with(EngineSettings.BATCH_SIZE, 1024)
                .with(DistributedSettings.RETRY_POLICY, RetryPolicy.QUERY).with(DistributedSettings.QUERY_RETRY_ATTEMPTS, 2);
        exchange.blocking = true;
        workers.get(1).failOnStart = new TaskError(ErrorCode.WORKER_LOST, "worker 127.0.0.1:9002 ended the control stream");
        TaskContext parent = new TaskContext("q1", allocator, MemoryPool.unlimited(), executor, new ExecutionConfig(1024, 2), coordinator.headServices());
        contexts.add(parent);
        List<String> planned = new CopyOnWriteArrayList<>();
        RetryingQuery lost = coordinator.newRetryingQuery("q1", settings, parent, (number, attemptId, head) -> {
            planned.add(number + " " + attemptId);
            return coordinator.newQuery(attemptId, coalescePlan(), head, settings);
        });
        assertThatThrownBy(() -> drain(lost.start())).isInstanceOfSatisfying(QuiverException.class, e -> {
            assertThat(e.errorCode()).isEqualTo(ErrorCode.WORKER_LOST);
            assertThat(e.getMessage()).contains("127.0.0.1:9002", "attempt 3", "run 2 time(s) again already", "distributed.query_retry_attempts=2");
        });
        assertThat(planned).containsExactly("1 q1", "2 q1-r1", "3 q1-r2");
        assertThat(lost.events()).filteredOn(QueryEvent.QueryRetried.class::isInstance).extracting(e -> ((QueryEvent.QueryRetried) e).retryQueryId())
                .containsExactly("q1-r1", "q1-r2");
        FinalPlan done = lost.finalPlan().get(5, TimeUnit.SECONDS);
        assertThat(done.queryId()).isEqualTo("q1-r2");
        assertThat(done.warnings()).hasSize(2).allMatch(warning -> warning.contains("lost a worker before any row reached the client"));
        assertThat(coordinator.metrics().queriesRetried()).isEqualTo(2);
        lost.close();

        // a failure of the query itself would fail again: not retried
        workers.get(1).failOnStart = new TaskError(ErrorCode.EXCEEDED_MEMORY_LIMIT, "the pool of 127.0.0.1:9002 is full");
        RetryingQuery full = coordinator.newRetryingQuery("q2", settings, parent, (number, attemptId, head) -> coordinator.newQuery(attemptId, coalescePlan(), head,
                settings));
        assertThatThrownBy(() -> drain(full.start())).isInstanceOfSatisfying(QuiverException.class,
                e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.EXCEEDED_MEMORY_LIMIT));
        assertThat(full.events()).noneMatch(QueryEvent.QueryRetried.class::isInstance);
        assertThat(full.finalPlan().get(5, TimeUnit.SECONDS).warnings()).isEmpty();
        assertThat(coordinator.metrics().queriesRetried()).isEqualTo(2);
        full.close();
    }

    @Test
    void aBrokenControlStreamFailsTheRunningQuery() throws Exception {
        exchange.blocking = true;
        DistributedQuery query = newQuery(coalescePlan());
        BatchStream results = query.start();
        executor.execute("kill", () -> {
            try {
                exchange.blocked.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            workers.get(0).die();
        });
        assertThatThrownBy(() -> drain(results)).isInstanceOfSatisfying(QuiverException.class, e -> {
            assertThat(e.errorCode()).isEqualTo(ErrorCode.WORKER_LOST);
            assertThat(e.getMessage()).contains("stage 0", "127.0.0.1:9001");
        });
        FinalPlan done = query.finalPlan().get(5, TimeUnit.SECONDS);
        // the first broken stream fails the query, which may end the dead worker's other task before its stream breaks too
        assertThat(done.reportsOf(0).get(0).state()).isEqualTo(TaskState.FAILED);
        assertThat(done.reportsOf(0)).allMatch(r -> r.worker().port() == 9002 ? r.state() == TaskState.SKIPPED
                : r.state() == TaskState.FAILED || r.state() == TaskState.SKIPPED);
    }

    @Test
    void cancelEndsEveryTaskAndFailsTheStream() throws Exception {
        exchange.blocking = true;
        DistributedQuery query = newQuery(coalescePlan());
        BatchStream results = query.start();
        query.cancel("test");
        assertThatThrownBy(() -> drain(results)).isInstanceOfSatisfying(QuiverException.class,
                e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.QUERY_CANCELLED));
        FinalPlan done = query.finalPlan().get(5, TimeUnit.SECONDS);
        assertThat(done.taskReports()).hasSize(3).allMatch(r -> r.state() == TaskState.SKIPPED);
        assertThat(query.events()).filteredOn(e -> e instanceof QueryEvent.QueryEnded)
                .singleElement().matches(e -> ((QueryEvent.QueryEnded) e).outcome() == Outcome.CANCELLED);
    }

    @Test
    void theLastResortTimeoutCountsAndNamesTheSilentWorker() throws Exception {
        try (Coordinator impatient = new Coordinator(List.copyOf(workers), exchange,
                new CoordinatorConfig(VERSION, Duration.ofMillis(200), Duration.ofMillis(100)), List.of())) {
            workers.get(1).silentOnEnd = true;
            TaskContext context = new TaskContext("q9", allocator, MemoryPool.unlimited(), executor, new ExecutionConfig(1024, 2), impatient.headServices());
            contexts.add(context);
            DistributedQuery query = impatient.newQuery("q9", coalescePlan(), context, DistributedSettings.TASK_REGISTRY.defaults());
            drain(query.start());
            FinalPlan done = query.finalPlan().get(5, TimeUnit.SECONDS);
            assertThat(impatient.metrics().metricsFinalizationTimeouts()).isEqualTo(1);
            assertThat(done.reportsOf(0)).filteredOn(r -> r.worker().port() == 9002)
                    .isNotEmpty().allMatch(r -> r.state() == TaskState.FAILED && r.error().orElseThrow().message().contains("127.0.0.1:9002"));
            assertThat(workers.get(1).aborted).isNotEmpty();
        }
    }

    @Test
    void skipsAnUnreachableWorkerWithAWarning() throws Exception {
        workers.get(1).unreachable = true;
        DistributedQuery query = newQuery(coalescePlan());
        List<List<Object>> rows = drain(query.start());

        // every producer task ran on the worker that answered
        assertThat(workers.get(1).requests).isEmpty();
        assertThat(workers.get(0).requests).hasSize(3);
        assertThat(rows).containsExactlyInAnyOrder(List.of(0, 9001), List.of(1, 9001), List.of(2, 9001));
        assertThat(query.events().get(0)).isInstanceOfSatisfying(QueryEvent.WorkerSkipped.class, skipped -> {
            assertThat(skipped.worker().port()).isEqualTo(9002);
            assertThat(skipped.reason()).contains("127.0.0.1:9002");
        });
        FinalPlan done = query.finalPlan().get(5, TimeUnit.SECONDS);
        assertThat(done.failure()).isEmpty();
        assertThat(done.warnings()).singleElement().asString().contains("worker 127.0.0.1:9002 skipped");

        // none answers: the query fails naming them all
        workers.get(0).unreachable = true;
        DistributedQuery none = newQuery(coalescePlan());
        assertThatThrownBy(none::start).isInstanceOfSatisfying(QuiverException.class, e -> {
            assertThat(e.errorCode()).isEqualTo(ErrorCode.WORKER_UNREACHABLE);
            assertThat(e.getMessage()).contains("no worker answers", "127.0.0.1:9001", "127.0.0.1:9002");
        });
    }

    @Test
    void refusesAnUnreachableWorkerUnderFailOrAnotherVersion() {
        workers.get(1).unreachable = true;
        TaskContext context = new TaskContext("q1", allocator, MemoryPool.unlimited(), executor, new ExecutionConfig(1024, 2), coordinator.headServices());
        contexts.add(context);
        DistributedQuery query = coordinator.newQuery("q1", coalescePlan(), context, DistributedSettings.TASK_REGISTRY.defaults()
                .with(DistributedSettings.UNREACHABLE_WORKERS, UnreachableWorkers.FAIL));
        assertThatThrownBy(query::start).isInstanceOfSatisfying(QuiverException.class, e -> {
            assertThat(e.errorCode()).isEqualTo(ErrorCode.WORKER_UNREACHABLE);
            assertThat(e.getMessage()).contains("127.0.0.1:9002");
        });
        assertThat(query.finalPlan()).succeedsWithin(Duration.ofSeconds(5));
        assertThat(workers).allMatch(w -> w.requests.isEmpty());

        FakeWorker old = new FakeWorker(9003, "test-0");
        try (Coordinator mixed = new Coordinator(List.of(old), exchange, CoordinatorConfig.defaults(VERSION), List.of())) {
            assertThatThrownBy(() -> mixed.checkWorkers(executor, DistributedSettings.TASK_REGISTRY.defaults())).isInstanceOfSatisfying(QuiverException.class, e -> {
                assertThat(e.errorCode()).isEqualTo(ErrorCode.WORKER_VERSION_MISMATCH);
                assertThat(e.getMessage()).contains("127.0.0.1:9003", "test-0", VERSION);
            });
        }
    }

    private static String describe(QueryEvent event) {
        if (event instanceof QueryEvent.StageClosed closed) {
            return "closed " + closed.stageId();
        }
        if (event instanceof QueryEvent.StageSized sized) {
            return "sized " + sized.stageId() + " tasks=" + sized.taskCount();
        }
        if (event instanceof QueryEvent.StageDispatched dispatched) {
            return "dispatched " + dispatched.stageId();
        }
        if (event instanceof QueryEvent.TaskStateChanged changed) {
            return changed.task() + " " + changed.state();
        }
        return "ended " + ((QueryEvent.QueryEnded) event).outcome();
    }

}
