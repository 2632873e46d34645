package dev.quiver.distributed.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.distributed.codec.PlanCodec;
import dev.quiver.distributed.protocol.ControlMessage;
import dev.quiver.distributed.protocol.FlightErrors;
import dev.quiver.distributed.protocol.HeartbeatSettings;
import dev.quiver.distributed.protocol.TaskId;
import dev.quiver.distributed.protocol.TaskRequest;
import dev.quiver.distributed.protocol.WireFormat;
import dev.quiver.distributed.protocol.WorkerAddress;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.source.memory.MemoryScanExec;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightRuntimeException;
import org.apache.arrow.flight.FlightServer;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.NoOpFlightProducer;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/** A peer that stops talking on a control stream is noticed by heartbeats, on both ends, well before gRPC keepalive would. */
class HeartbeatTest {
    private static final Schema SCHEMA = new Schema(List.of(Field.nullable("id", new ArrowType.Int(64, true))));
    private static final Map<String, String> FAST = Map.of("distributed.heartbeat_interval_ms", "100", "distributed.heartbeat_timeout_ms", "700");
    private static final WireFormat WIRE = new WireFormat(PlanCodec.create());

    private static TaskRequest request(String query) {
        return TestCluster.request(new TaskId(query, 1, 0), MemoryScanExec.split(SCHEMA, List.of(List.of(1L)), 1), Optional.empty(), FAST);
    }

    /** A "worker" that acknowledges a task and then says nothing more. */
    private static final class SilentWorker extends NoOpFlightProducer {
        private final BufferAllocator allocator;

        SilentWorker(BufferAllocator allocator) {
            this.allocator = allocator;
        }

        @Override
        public void doExchange(CallContext context, FlightStream reader, ServerStreamListener writer) {
            TaskRequest request = WIRE.decodeRequest(reader.getDescriptor().getCommand(), TestCluster.VERSION);
            byte[] ack = WIRE.encode(new ControlMessage.Ack(request.taskId()));
            // never read again (Flight frees what arrives when the call ends); wait until the coordinator gives up
            CountDownLatch cancelled = new CountDownLatch(1);
            writer.setOnCancelHandler(cancelled::countDown);
            writer.putMetadata(WireFormat.metadata(allocator, ack));
            try {
                cancelled.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Test
    void silentWorkerIsDeclaredLostNamingIt() throws Exception {
        BufferAllocator serverAllocator = new RootAllocator();
        try (TestCluster cluster = new TestCluster(0);
                FlightServer silent = FlightServer.builder(serverAllocator, Location.forGrpcInsecure("127.0.0.1", 0), new SilentWorker(serverAllocator))
                        .build().start()) {
            WorkerAddress address = new WorkerAddress("127.0.0.1", silent.getPort());
            RecordingListener listener = new RecordingListener();
            long start = System.nanoTime();
            var control = cluster.connections.workerClient(address).startTask(request("h1"), listener);
            QuiverException failure = listener.awaitFailure();
            assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(5_000);
            assertThat(failure.errorCode()).isEqualTo(ErrorCode.WORKER_LOST);
            assertThat(failure.getMessage()).contains(address.toString()).contains("h1.s1.t0");
            control.close();
        } finally {
            // the fake never reads the heartbeats sent to it, and Flight does not free unread messages of a cancelled
            // call: its allocator may hold them (the coordinator side, which this test is about, is checked by TestCluster)
            try {
                serverAllocator.close();
            } catch (IllegalStateException unreadHeartbeats) {
                assertThat(unreadHeartbeats.getMessage()).contains("Memory was leaked");
            }
        }
    }

    @Test
    void workerStopsTaskOfSilentCoordinator() throws Exception {
        try (TestCluster cluster = new TestCluster(1)) {
            WorkerServer worker = cluster.worker(0);
            FlightClient client = cluster.connections.client(worker.address());
            try (FlightClient.ExchangeReaderWriter exchange = client.doExchange(FlightDescriptor.command(WIRE.encodeRequest(request("h2"))))) {
                assertThat(exchange.getReader().next()).isTrue();
                assertThat(worker.activeTasks()).isEqualTo(1);
                // no heartbeats from here on: the worker must drop the task and fail the stream
                assertThatThrownBy(() -> {
                    while (exchange.getReader().next()) {
                        // the worker's own heartbeats
                    }
                }).isInstanceOfSatisfying(FlightRuntimeException.class, e -> {
                    assertThat(FlightErrors.remoteError(e).orElseThrow().code()).isEqualTo(ErrorCode.WORKER_LOST);
                    assertThat(e.getMessage()).contains("no heartbeat");
                });
                cluster.assertWorkersClean();
            }
        }
    }
}
