package dev.quiver.distributed.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.distributed.client.FlightWorkerClient;
import dev.quiver.distributed.client.TaskControl;
import dev.quiver.distributed.operator.BoundaryKind;
import dev.quiver.distributed.operator.RemotePartition;
import dev.quiver.distributed.operator.StageInputExec;
import dev.quiver.distributed.protocol.HeartbeatSettings;
import dev.quiver.distributed.protocol.ProducerHead;
import dev.quiver.distributed.protocol.TaskId;
import dev.quiver.distributed.protocol.TaskReport;
import dev.quiver.distributed.protocol.TaskState;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.BatchStream;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.execution.TaskContext;
import dev.quiver.engine.expr.ColumnExpr;
import dev.quiver.engine.expr.PhysicalExpr;
import dev.quiver.engine.source.memory.MemoryScanExec;
import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.engine.spi.ScanRequest;
import dev.quiver.engine.stats.Statistics;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/**
 * Two stages on workers: a producer task shuffles to two consumer tasks that run on workers too and
 * read their input with the worker's own exchange client; compression settings and a cancelled
 * control stream.
 */
class WorkerPipelineTest {
    private static final ArrowType INT64 = new ArrowType.Int(64, true);
    private static final Schema SCHEMA = new Schema(List.of(Field.nullable("id", INT64), Field.nullable("name", ArrowType.Utf8.INSTANCE)));
    private static final List<PhysicalExpr> KEYS = List.of(new ColumnExpr(0, "id", INT64, true));

    private static List<List<Object>> rows(int count) {
        List<List<Object>> rows = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            rows.add(List.of((long) i, "value " + (i * 7919 % 1000)));
        }
        return rows;
    }

    @Test
    void consumerTasksOnWorkersReadTheirShuffleInputs() {
        for (String compression : List.of("lz4", "zstd", "none")) {
            runPipeline(Map.of("batch_size", "128", "distributed.compression", compression));
        }
    }

    private void runPipeline(Map<String, String> settings) {
        ProducerHead.Shuffle shuffle = new ProducerHead.Shuffle(KEYS, 2, 2);
        try (TestCluster cluster = new TestCluster(2)) {
            TaskId producer = new TaskId("p1", 1, 0);
            RecordingListener producerListener = new RecordingListener();
            TaskControl producerControl = cluster.client(0).startTask(
                    TestCluster.request(producer, MemoryScanExec.split(SCHEMA, rows(5000), 3), Optional.of(shuffle), settings), producerListener);
            StageInputExec input = new StageInputExec(1, BoundaryKind.SHUFFLE, SCHEMA, KEYS, 1, 3, 2, 2, Statistics.unknown(SCHEMA), Optional.empty());
            List<TaskControl> consumerControls = new ArrayList<>();
            List<RecordingListener> consumerListeners = new ArrayList<>();
            List<List<Object>> read = new ArrayList<>();
            TaskContext head = cluster.consumerContext("p1.s2.t0");
            for (int c = 0; c < 2; c++) {
                ExecutionPlan plan = input.bind("p1", c, List.of(cluster.worker(0).address()));
                TaskId consumer = new TaskId("p1", 0, c);
                RecordingListener listener = new RecordingListener();
                consumerListeners.add(listener);
                // consumer task c runs on worker c and serves its two partitions to the test (the head)
                consumerControls.add(cluster.client(c).startTask(TestCluster.request(consumer, plan, Optional.of(new ProducerHead.Coalesce()), settings),
                        listener));
                List<RemotePartition> sources = List.of(cluster.source(c, consumer, 0, new ProducerHead.Coalesce(), 0),
                        cluster.source(c, consumer, 1, new ProducerHead.Coalesce(), 0));
                read.addAll(cluster.read(head, sources, SCHEMA));
            }
            assertThat(read).as(settings.toString()).containsExactlyInAnyOrderElementsOf(rows(5000));
            for (int c = 0; c < 2; c++) {
                consumerListeners.get(c).awaitState(TaskState.FINISHED);
                consumerControls.get(c).endQuery();
                assertThat(consumerListeners.get(c).awaitReport().state()).isEqualTo(TaskState.FINISHED);
                assertThat(consumerListeners.get(c).awaitReport().metrics().get(0).name()).isEqualTo("StageInputExec");
                consumerControls.get(c).close();
            }
            producerControl.endQuery();
            assertThat(producerListener.awaitReport().state()).isEqualTo(TaskState.FINISHED);
            producerControl.close();
        }
    }

    @Test
    void tpchLineitemShuffledToTwoConsumerTasksMatchesTheSingleNodeRepartition() {
        // l_orderkey, l_extendedprice, l_returnflag, l_shipdate, l_comment: integer, decimal, string and date columns
        // (an uncached catalog holds nothing to close)
        ExecutionPlan scan = new TpchCatalog(0.01).table("lineitem").orElseThrow()
                .scan(new ScanRequest(Optional.of(List.of(0, 5, 8, 10, 15)), List.of(), 2));
        List<PhysicalExpr> keys = List.of(new ColumnExpr(0, "l_orderkey", scan.schema().getFields().get(0).getType(), false));
        ProducerHead.Shuffle head = new ProducerHead.Shuffle(keys, 2, 2);
        List<List<List<Object>>> expected = TestCluster.singleNodeShuffle(List.of(scan), keys, 4);
        try (TestCluster cluster = new TestCluster(1)) {
            TaskId task = new TaskId("t1", 1, 0);
            RecordingListener listener = new RecordingListener();
            TaskControl control = cluster.client(0).startTask(TestCluster.request(task, scan, Optional.of(head), Map.of()), listener);
            for (int consumer = 0; consumer < 2; consumer++) {
                TaskContext context = cluster.consumerContext("t1.s0.t" + consumer);
                for (int p = 0; p < 2; p++) {
                    int partition = head.firstPartitionOf(consumer) + p;
                    List<List<Object>> read = cluster.read(context, List.of(cluster.source(0, task, partition, head, consumer)), scan.schema());
                    assertThat(counts(read)).as("partition " + partition).isEqualTo(counts(expected.get(partition)));
                }
            }
            assertThat(expected.stream().mapToInt(List::size).sum()).isGreaterThan(50_000);
            control.endQuery();
            assertThat(listener.awaitReport().state()).isEqualTo(TaskState.FINISHED);
            control.close();
        }
    }

    /** The rows as a multiset. */
    private static Map<List<Object>, Integer> counts(List<List<Object>> rows) {
        Map<List<Object>, Integer> counts = new HashMap<>();
        rows.forEach(row -> counts.merge(row, 1, Integer::sum));
        return counts;
    }

    @Test
    void consumerWhoseProducerEndsFirstIsCancelledNotFailed() {
        try (TestCluster cluster = new TestCluster(2)) {
            ProducerHead coalesce = new ProducerHead.Coalesce();
            TaskId producer = new TaskId("k1", 1, 0);
            RecordingListener producerListener = new RecordingListener();
            TaskControl producerControl = cluster.client(0).startTask(TestCluster.request(producer, new EndlessExec(), Optional.of(coalesce),
                    Map.of("batch_size", "10")), producerListener);
            StageInputExec input = new StageInputExec(1, BoundaryKind.COALESCE, EndlessExec.SCHEMA, List.of(), 1, 1, 1, 1,
                    Statistics.unknown(EndlessExec.SCHEMA), Optional.empty()).bind("k1", 0, List.of(cluster.worker(0).address()));
            TaskId consumer = new TaskId("k1", 2, 0);
            RecordingListener consumerListener = new RecordingListener();
            TaskControl consumerControl = cluster.client(1).startTask(TestCluster.request(consumer, input, Optional.of(coalesce), Map.of()),
                    consumerListener);
            TaskContext head = cluster.consumerContext("k1.s3.t0");
            try (BatchStream stream = cluster.connections.exchangeClient().open(List.of(cluster.source(1, consumer, 0, coalesce, 0)),
                    EndlessExec.SCHEMA, head)) {
                stream.next().close();
                // the query ends at the producer first: its consumer's input stops
                producerControl.endQuery();
                assertThat(producerListener.awaitReport().state()).isEqualTo(TaskState.CANCELLED);
                assertThatThrownBy(() -> {
                    VectorSchemaRoot batch;
                    while ((batch = stream.next()) != null) {
                        batch.close();
                    }
                }).isInstanceOfSatisfying(QuiverException.class, e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.QUERY_CANCELLED));
            }
            consumerControl.endQuery();
            assertThat(consumerListener.awaitReport().state()).isEqualTo(TaskState.CANCELLED);
            assertThat(consumerListener.states()).doesNotContain(TaskState.FAILED);
            producerControl.close();
            consumerControl.close();
        }
    }

    @Test
    void abortedControlStreamStopsAndFreesTheTask() {
        try (TestCluster cluster = new TestCluster(1)) {
            TaskId task = new TaskId("p3", 1, 0);
            ProducerHead head = new ProducerHead.Coalesce();
            RecordingListener listener = new RecordingListener();
            TaskControl control = cluster.client(0).startTask(TestCluster.request(task, new EndlessExec(), Optional.of(head),
                    Map.of("batch_size", "10")), listener);
            TaskContext consumer = cluster.consumerContext("p3.s0.t0");
            try (var stream = cluster.connections.exchangeClient().open(List.of(cluster.source(0, task, 0, head, 0)), EndlessExec.SCHEMA, consumer)) {
                stream.next().close();
                control.abort("the test gives up");
                control.close();
                cluster.assertWorkersClean();
            }
            assertThat(listener.report).isNotDone();
            assertThat(listener.failure).isNotDone();
        }
    }

    @Test
    void controlClosedFromItsOwnFinalReportCallbackDoesNotWait() throws Exception {
        try (TestCluster cluster = new TestCluster(1)) {
            CompletableFuture<TaskControl> control = new CompletableFuture<>();
            CompletableFuture<Long> closedAfterMillis = new CompletableFuture<>();
            RecordingListener listener = new RecordingListener() {
                @Override
                public void onFinalReport(TaskReport report) {
                    long start = System.nanoTime();
                    control.join().close();
                    closedAfterMillis.complete((System.nanoTime() - start) / 1_000_000);
                    super.onFinalReport(report);
                }
            };
            FlightWorkerClient client = cluster.client(0);
            control.complete(client.startTask(TestCluster.request(new TaskId("c1", 1, 0), MemoryScanExec.split(SCHEMA, rows(1), 1),
                    Optional.empty(), Map.of()), listener));
            control.join().endQuery();
            assertThat(listener.awaitReport().state()).isEqualTo(TaskState.SKIPPED);
            assertThat(closedAfterMillis.get(10, TimeUnit.SECONDS)).isLessThan(2_000);
            assertThat(client.openTasks()).isZero();
        }
    }

    /**
     * A control stream closed from its own final-report callback is released by its reader only once
     * the callback returns, and until then the reader holds the report's buffer, allocated by the
     * Flight client. Closing the connections meanwhile must wait for the reader: else the client's
     * allocator closes under that buffer and {@link TestCluster#close()} fails on the leak. The
     * callback lingers here as a reader thread descheduled under load would.
     */
    @Test
    void connectionsClosedWhileAReaderStillHoldsItsFinalReportLeakNothing() {
        try (TestCluster cluster = new TestCluster(1)) {
            CompletableFuture<TaskControl> control = new CompletableFuture<>();
            RecordingListener listener = new RecordingListener() {
                @Override
                public void onFinalReport(TaskReport report) {
                    control.join().close();
                    super.onFinalReport(report);
                    TestCluster.sleep(500);
                }
            };
            control.complete(cluster.client(0).startTask(TestCluster.request(new TaskId("c2", 1, 0), MemoryScanExec.split(SCHEMA, rows(1), 1),
                    Optional.empty(), Map.of()), listener));
            control.join().endQuery();
            assertThat(listener.awaitReport().state()).isEqualTo(TaskState.SKIPPED);
        }
    }

    @Test
    void abortsWhileHeartbeatsFlowLeakNothing() {
        try (TestCluster cluster = new TestCluster(1)) {
            for (int i = 0; i < 40; i++) {
                TaskControl control = cluster.client(0).startTask(TestCluster.request(new TaskId("a" + i, 1, 0),
                        MemoryScanExec.split(SCHEMA, rows(1), 1), Optional.empty(),
                        Map.of("distributed.heartbeat_interval_ms", "5", "distributed.heartbeat_timeout_ms", "3000")), new RecordingListener());
                TestCluster.sleep(20 + i % 7);
                control.abort("stress");
                control.close();
            }
            cluster.assertWorkersClean();
        }
    }
}
