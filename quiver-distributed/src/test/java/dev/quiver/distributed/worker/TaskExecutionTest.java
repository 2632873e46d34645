package dev.quiver.distributed.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.distributed.client.TaskControl;
import dev.quiver.distributed.operator.RemotePartition;
import dev.quiver.distributed.operator.SamplerExec;
import dev.quiver.distributed.protocol.ProducerHead;
import dev.quiver.distributed.protocol.TaskId;
import dev.quiver.distributed.protocol.TaskReport;
import dev.quiver.distributed.protocol.TaskState;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.expr.BinaryExpr;
import dev.quiver.engine.expr.BinaryOperator;
import dev.quiver.engine.expr.ColumnExpr;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.operator.ProjectionExec;
import dev.quiver.engine.source.memory.MemoryScanExec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/** Tasks on real workers, read through the Flight exchange client: heads, partition math, states and cleanup. */
class TaskExecutionTest {
    private static final ArrowType INT64 = new ArrowType.Int(64, true);
    private static final Schema SCHEMA = new Schema(List.of(Field.nullable("id", INT64), Field.nullable("name", ArrowType.Utf8.INSTANCE)));
    private static final List<PhysicalExpr> KEYS = List.of(new ColumnExpr(0, "id", INT64, true));
    private static final Map<String, String> SMALL_BATCHES = Map.of("batch_size", "64");

    private static List<List<Object>> rows(int from, int count) {
        List<List<Object>> rows = new ArrayList<>();
        for (int i = from; i < from + count; i++) {
            rows.add(List.of((long) i, "name-" + (i % 37)));
        }
        return rows;
    }

    private static MemoryScanExec scan(int from, int count, int partitions) {
        return MemoryScanExec.split(SCHEMA, rows(from, count), partitions);
    }

    @Test
    void coalesceServesEveryPartitionAndFinishes() {
        try (TestCluster cluster = new TestCluster(1)) {
            TaskId task = new TaskId("q1", 1, 0);
            ProducerHead head = new ProducerHead.Coalesce();
            RecordingListener listener = new RecordingListener();
            TaskControl control = cluster.client(0).startTask(TestCluster.request(task, scan(0, 1000, 3), Optional.empty(), SMALL_BATCHES), listener);
            TaskContext consumer = cluster.consumerContext("q1.s0.t0");
            List<RemotePartition> sources = List.of(cluster.source(0, task, 0, head, 0), cluster.source(0, task, 1, head, 0), cluster.source(0, task, 2, head, 0));
            List<List<Object>> read = cluster.read(consumer, sources, SCHEMA);
            assertThat(read).containsExactlyInAnyOrderElementsOf(rows(0, 1000));
            listener.awaitState(TaskState.FINISHED);
            control.endQuery();
            TaskReport report = listener.awaitReport();
            assertThat(report.state()).isEqualTo(TaskState.FINISHED);
            assertThat(report.worker()).isEqualTo(cluster.worker(0).address());
            assertThat(report.metrics()).hasSize(1);
            assertThat(report.metrics().get(0).name()).isEqualTo("MemoryScanExec");
            assertThat(report.metrics().get(0).outputRows()).isEqualTo(1000);
            assertThat(listener.states()).containsExactly(TaskState.RUNNING, TaskState.FINISHED);
            control.close();
        }
    }

    @Test
    void shuffleServesEachConsumerTaskExactlyItsHashPartitions() {
        int partitionsPerConsumer = 2;
        int consumers = 2;
        ProducerHead.Shuffle head = new ProducerHead.Shuffle(KEYS, partitionsPerConsumer, consumers);
        List<ExecutionPlan> producers = List.of(scan(0, 700, 2), scan(700, 500, 3));
        try (TestCluster cluster = new TestCluster(2)) {
            List<RecordingListener> listeners = new ArrayList<>();
            List<TaskControl> controls = new ArrayList<>();
            for (int t = 0; t < producers.size(); t++) {
                RecordingListener listener = new RecordingListener();
                listeners.add(listener);
                // task 0 gets its head with the request, task 1 from its first ticket
                Optional<ProducerHead> bound = t == 0 ? Optional.of(head) : Optional.empty();
                controls.add(cluster.client(t).startTask(TestCluster.request(new TaskId("q2", 1, t), producers.get(t), bound, SMALL_BATCHES), listener));
            }
            // consumer partition p of consumer task c reads producer partition P_c*c + p of every producer task
            List<List<List<Object>>> distributed = new ArrayList<>();
            for (int c = 0; c < consumers; c++) {
                TaskContext context = cluster.consumerContext("q2.s0.t" + c);
                for (int p = 0; p < partitionsPerConsumer; p++) {
                    int partition = head.firstPartitionOf(c) + p;
                    List<RemotePartition> sources = new ArrayList<>();
                    for (int t = 0; t < producers.size(); t++) {
                        sources.add(cluster.source(t, new TaskId("q2", 1, t), partition, head, c));
                    }
                    distributed.add(cluster.read(context, sources, SCHEMA));
                }
            }
            List<List<List<Object>>> singleNode = TestCluster.singleNodeShuffle(producers, KEYS, partitionsPerConsumer * consumers);
            assertThat(distributed).hasSize(singleNode.size());
            for (int partition = 0; partition < singleNode.size(); partition++) {
                assertThat(distributed.get(partition)).as("partition " + partition).isNotEmpty()
                        .containsExactlyInAnyOrderElementsOf(singleNode.get(partition));
            }
            for (int t = 0; t < producers.size(); t++) {
                controls.get(t).endQuery();
                TaskReport report = listeners.get(t).awaitReport();
                assertThat(report.state()).isEqualTo(TaskState.FINISHED);
                assertThat(report.metrics().get(0).name()).isEqualTo("RepartitionExec");
                controls.get(t).close();
            }
        }
    }

    @Test
    void broadcastReplaysEveryPartitionToEachConsumerTask() {
        ProducerHead head = new ProducerHead.Broadcast(2);
        try (TestCluster cluster = new TestCluster(1)) {
            TaskId task = new TaskId("q3", 1, 0);
            RecordingListener listener = new RecordingListener();
            TaskControl control = cluster.client(0).startTask(TestCluster.request(task, scan(0, 600, 2), Optional.of(head), SMALL_BATCHES), listener);
            for (int c = 0; c < 2; c++) {
                TaskContext context = cluster.consumerContext("q3.s0.t" + c);
                List<List<Object>> read = new ArrayList<>();
                for (int p = 0; p < 2; p++) {
                    read.addAll(cluster.read(context, List.of(cluster.source(0, task, p, head, c)), SCHEMA));
                }
                assertThat(read).as("consumer task " + c).containsExactlyInAnyOrderElementsOf(rows(0, 600));
                if (c == 0) {
                    assertThat(listener.states()).doesNotContain(TaskState.FINISHED);
                }
            }
            listener.awaitState(TaskState.FINISHED);
            control.endQuery();
            assertThat(listener.awaitReport().state()).isEqualTo(TaskState.FINISHED);
            // the scan ran once: replays do not recompute
            assertThat(listener.awaitReport().metrics().get(0).outputRows()).isEqualTo(600);
            control.close();
        }
    }

    @Test
    void broadcastPartitionBeyondTheWorkerPoolFailsNamingIt() {
        ProducerHead head = new ProducerHead.Broadcast(2);
        try (TestCluster cluster = new TestCluster(1, 64 << 10)) {
            TaskId task = new TaskId("q8", 1, 0);
            RecordingListener listener = new RecordingListener();
            TaskControl control = cluster.client(0).startTask(TestCluster.request(task, scan(0, 20_000, 1), Optional.of(head), SMALL_BATCHES), listener);
            TaskContext consumer = cluster.consumerContext("q8.s0.t0");
            assertThatThrownBy(() -> cluster.read(consumer, List.of(cluster.source(0, task, 0, head, 0)), SCHEMA))
                    .isInstanceOf(QuiverException.class)
                    .hasMessageContaining("EXCEEDED_MEMORY_LIMIT")
                    .hasMessageContaining("broadcast buffer q8.s1.t0 partition 0");
            control.endQuery();
            TaskReport report = listener.awaitReport();
            assertThat(report.state()).isEqualTo(TaskState.FAILED);
            assertThat(report.error().orElseThrow().code()).isEqualTo(ErrorCode.EXCEEDED_MEMORY_LIMIT);
            control.close();
        }
    }

    @Test
    void taskEndedBeforeAnyPullIsSkippedWithEmptyMetrics() {
        try (TestCluster cluster = new TestCluster(1)) {
            RecordingListener listener = new RecordingListener();
            TaskControl control = cluster.client(0).startTask(TestCluster.request(new TaskId("q4", 1, 0), scan(0, 100, 2),
                    Optional.of(new ProducerHead.Coalesce()), Map.of()), listener);
            assertThat(cluster.worker(0).activeTasks()).isEqualTo(1);
            control.endQuery();
            TaskReport report = listener.awaitReport();
            assertThat(report.state()).isEqualTo(TaskState.SKIPPED);
            assertThat(report.metrics()).isEmpty();
            assertThat(report.error()).isEmpty();
            assertThat(listener.states()).isEmpty();
            control.close();
            // a request arriving after the end fails at once, saying so, rather than waiting for the task
            cluster.assertWorkersClean();
            TaskContext late = cluster.consumerContext("q4.s0.t0");
            assertThatThrownBy(() -> cluster.read(late, List.of(cluster.source(0, new TaskId("q4", 1, 0), 0, new ProducerHead.Coalesce(), 0)), SCHEMA))
                    .isInstanceOf(QuiverException.class)
                    .hasMessageContaining("q4.s1.t0 has already ended");
        }
    }

    @Test
    void taskEndedMidReadIsCancelled() {
        try (TestCluster cluster = new TestCluster(1)) {
            TaskId task = new TaskId("q5", 1, 0);
            ProducerHead head = new ProducerHead.Coalesce();
            RecordingListener listener = new RecordingListener();
            // the source never ends, so the task is still running whenever the query ends
            TaskControl control = cluster.client(0).startTask(TestCluster.request(task, new EndlessExec(), Optional.of(head), Map.of("batch_size", "10")),
                    listener);
            TaskContext consumer = cluster.consumerContext("q5.s0.t0");
            try (BatchStream stream = cluster.connections.exchangeClient().open(List.of(cluster.source(0, task, 0, head, 0)), EndlessExec.SCHEMA,
                    consumer)) {
                stream.next().close();
                listener.awaitState(TaskState.RUNNING);
                control.endQuery();
                TaskReport report = listener.awaitReport();
                assertThat(report.state()).isEqualTo(TaskState.CANCELLED);
                assertThat(report.metrics()).isNotEmpty();
                // the consumer learns that its input went away rather than seeing a silent end
                assertThatThrownBy(() -> {
                    VectorSchemaRoot batch;
                    while ((batch = stream.next()) != null) {
                        batch.close();
                    }
                }).isInstanceOf(QuiverException.class).hasMessageContaining(task.toString());
            }
            control.close();
        }
    }

    @Test
    void operatorFailureReachesCoordinatorWithItsCode() {
        // id / (id - id): division by zero in the first row
        ColumnExpr id = new ColumnExpr(0, "id", INT64, true);
        PhysicalExpr zero = new BinaryExpr(BinaryOperator.MINUS, id, id, INT64);
        ExecutionPlan failing = new ProjectionExec(List.of(new BinaryExpr(BinaryOperator.DIVIDE, id, zero, INT64)), List.of("ratio"), scan(0, 100, 1));
        try (TestCluster cluster = new TestCluster(1)) {
            TaskId task = new TaskId("q6", 1, 0);
            ProducerHead head = new ProducerHead.Coalesce();
            RecordingListener listener = new RecordingListener();
            TaskControl control = cluster.client(0).startTask(TestCluster.request(task, failing, Optional.of(head), Map.of()), listener);
            TaskContext consumer = cluster.consumerContext("q6.s0.t0");
            assertThatThrownBy(() -> cluster.read(consumer, List.of(cluster.source(0, task, 0, head, 0)), failing.schema()))
                    .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.DIVISION_BY_ZERO))
                    .hasMessageContaining("failed: DIVISION_BY_ZERO")
                    .hasMessageContaining(cluster.worker(0).address().toString())
                    .hasMessageContaining(task.toString());
            listener.awaitState(TaskState.FAILED);
            assertThat(listener.errors.get(listener.states().indexOf(TaskState.FAILED)).orElseThrow().code()).isEqualTo(ErrorCode.DIVISION_BY_ZERO);
            control.endQuery();
            TaskReport report = listener.awaitReport();
            assertThat(report.state()).isEqualTo(TaskState.FAILED);
            assertThat(report.error().orElseThrow().code()).isEqualTo(ErrorCode.DIVISION_BY_ZERO);
            control.close();
        }
    }

    /**
     * A consumer that ends the query as soon as its read fails, as the coordinator's head stage does,
     * still gets the task's own error in the final report: the worker records the failure before the
     * consumer hears of it, even when closing the failed partition takes a while.
     */
    @Test
    void aConsumerEndingTheQueryAtOnceOnAFailedReadStillGetsTheTasksError() {
        try (TestCluster cluster = new TestCluster(1)) {
            TaskId task = new TaskId("q7", 1, 0);
            ProducerHead head = new ProducerHead.Coalesce();
            FailingSourceExec failing = new FailingSourceExec();
            RecordingListener listener = new RecordingListener();
            TaskControl control = cluster.client(0).startTask(TestCluster.request(task, failing, Optional.of(head), Map.of()), listener);
            TaskContext consumer = cluster.consumerContext("q7.s0.t0");
            assertThatThrownBy(() -> cluster.read(consumer, List.of(cluster.source(0, task, 0, head, 0)), failing.schema()))
                    .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.SOURCE_ERROR))
                    .hasMessageContaining(FailingSourceExec.MESSAGE);
            control.endQuery();
            TaskReport report = listener.awaitReport();
            assertThat(report.state()).isEqualTo(TaskState.FAILED);
            assertThat(report.error().orElseThrow().code()).isEqualTo(ErrorCode.SOURCE_ERROR);
            control.close();
        }
    }

    /**
     * A stack overflow (an expression nested too deeply for a worker thread) is an Error, not an
     * exception: read through a head or hit while AQE samples, it fails the task with
     * STATEMENT_TOO_COMPLEX, where a sampler that died unheard left the coordinator waiting forever.
     */
    @Test
    void aStackOverflowFailsTheTaskWithStatementTooComplex() {
        try (TestCluster cluster = new TestCluster(1)) {
            TaskId read = new TaskId("q8", 1, 0);
            ProducerHead head = new ProducerHead.Coalesce();
            OverflowingSourceExec overflowing = new OverflowingSourceExec();
            RecordingListener readListener = new RecordingListener();
            TaskControl readControl = cluster.client(0).startTask(TestCluster.request(read, overflowing, Optional.of(head), Map.of()), readListener);
            assertThatThrownBy(() -> cluster.read(cluster.consumerContext("q8.s0.t0"), List.of(cluster.source(0, read, 0, head, 0)), overflowing.schema()))
                    .isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.STATEMENT_TOO_COMPLEX))
                    .hasMessageContaining("nested too deeply");
            readControl.endQuery();
            assertThat(readListener.awaitReport().error().orElseThrow().code()).isEqualTo(ErrorCode.STATEMENT_TOO_COMPLEX);
            readControl.close();

            TaskId sampled = new TaskId("q9", 1, 0);
            RecordingListener sampleListener = new RecordingListener();
            TaskControl sampleControl = cluster.client(0).startTask(
                    TestCluster.request(sampled, new SamplerExec(overflowing, List.of(), 1 << 20), Optional.empty(), Map.of()), sampleListener);
            sampleListener.awaitState(TaskState.FAILED);
            assertThat(sampleListener.errors.get(sampleListener.states().indexOf(TaskState.FAILED)).orElseThrow().code())
                    .isEqualTo(ErrorCode.STATEMENT_TOO_COMPLEX);
            sampleControl.endQuery();
            assertThat(sampleListener.awaitReport().state()).isEqualTo(TaskState.FAILED);
            sampleControl.close();
            cluster.assertWorkersClean();
        }
    }

    @Test
    void headMismatchAndOutOfRangePartitionAreClearErrors() {
        ProducerHead.Shuffle head = new ProducerHead.Shuffle(KEYS, 2, 2);
        try (TestCluster cluster = new TestCluster(1)) {
            TaskId task = new TaskId("q7", 1, 0);
            RecordingListener listener = new RecordingListener();
            TaskControl control = cluster.client(0).startTask(TestCluster.request(task, scan(0, 100, 2), Optional.of(head), Map.of()), listener);
            TaskContext consumer = cluster.consumerContext("q7.s0.t0");
            ProducerHead.Shuffle otherCount = new ProducerHead.Shuffle(KEYS, 2, 3);
            assertThatThrownBy(() -> cluster.read(consumer, List.of(cluster.source(0, task, 0, otherCount, 0)), SCHEMA))
                    .isInstanceOf(QuiverException.class)
                    .hasMessageContaining("PLAN_ERROR")
                    .hasMessageContaining("T_c=2")
                    .hasMessageContaining("T_c=3")
                    .hasMessageContaining("disagree");
            // consumer task 0 reads [0, 2); partition 3 belongs to consumer task 1
            assertThatThrownBy(() -> cluster.read(consumer, List.of(cluster.source(0, task, 3, head, 0)), SCHEMA))
                    .isInstanceOf(QuiverException.class)
                    .hasMessageContaining("partition 3")
                    .hasMessageContaining("[0, 2)");
            assertThatThrownBy(() -> cluster.read(consumer, List.of(cluster.source(0, new TaskId("q7", 1, 5), 0, head, 0)), SCHEMA))
                    .isInstanceOf(QuiverException.class)
                    .hasMessageContaining("q7.s1.t5");
            // refused requests never start the task
            control.endQuery();
            assertThat(listener.awaitReport().state()).isEqualTo(TaskState.SKIPPED);
            control.close();
        }
    }

    @Test
    void fiftyTasksInARowLeaveNothingBehind() {
        try (TestCluster cluster = new TestCluster(1)) {
            WorkerServer worker = cluster.worker(0);
            ProducerHead head = new ProducerHead.Shuffle(KEYS, 2, 1);
            int threadsBefore = -1;
            for (int i = 0; i < 50; i++) {
                TaskId task = new TaskId("r" + i, 1, 0);
                RecordingListener listener = new RecordingListener();
                TaskControl control = cluster.client(0).startTask(TestCluster.request(task, scan(0, 300, 2), Optional.of(head), SMALL_BATCHES), listener);
                TaskContext consumer = cluster.consumerContext("r" + i + ".s0.t0");
                List<List<Object>> read = new ArrayList<>();
                for (int p = 0; p < 2; p++) {
                    read.addAll(cluster.read(consumer, List.of(cluster.source(0, task, p, head, 0)), SCHEMA));
                }
                assertThat(read).hasSize(300);
                control.endQuery();
                assertThat(listener.awaitReport().state()).isEqualTo(TaskState.FINISHED);
                control.close();
                if (i == 0) {
                    cluster.assertWorkersClean();
                    threadsBefore = idleThreads(worker);
                }
            }
            cluster.assertWorkersClean();
            assertThat(threadsAtMost(worker, threadsBefore)).isLessThanOrEqualTo(threadsBefore);
        }
    }

    /** Busy threads of an idle worker (its heartbeat thread): the fewest seen over half a second. */
    private static int idleThreads(WorkerServer worker) {
        int fewest = worker.activeThreads();
        for (int i = 0; i < 25; i++) {
            TestCluster.sleep(20);
            fewest = Math.min(fewest, worker.activeThreads());
        }
        return fewest;
    }

    /** Busy threads of the worker once they have come down to {@code limit}, or after 5 s. */
    private static int threadsAtMost(WorkerServer worker, int limit) {
        int threads = worker.activeThreads();
        for (int i = 0; i < 250 && threads > limit; i++) {
            TestCluster.sleep(20);
            threads = worker.activeThreads();
        }
        return threads;
    }
}
