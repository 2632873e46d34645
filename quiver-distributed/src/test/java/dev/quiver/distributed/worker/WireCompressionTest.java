package dev.quiver.distributed.worker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.quiver.distributed.client.TaskControl;
import dev.quiver.distributed.codec.PlanCodec;
import dev.quiver.distributed.protocol.DataTicket;
import dev.quiver.distributed.protocol.ProducerHead;
import dev.quiver.distributed.protocol.TaskId;
import dev.quiver.distributed.protocol.WireFormat;
import dev.quiver.distributed.protocol.WorkerAddress;
import dev.quiver.engine.source.memory.MemoryScanExec;
import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ClientStreamTracer;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.netty.NettyChannelBuilder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightGrpcUtils;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/** The bytes on the wire: {@code distributed.compression} really compresses DoGet bodies (counted by a gRPC stream tracer). */
class WireCompressionTest {
    private static final Schema SCHEMA = new Schema(List.of(Field.nullable("id", new ArrowType.Int(64, true)), Field.nullable("name", ArrowType.Utf8.INSTANCE)));

    @Test
    void lz4AndZstdShrinkTheWireBytesOfCompressibleData() throws Exception {
        List<List<Object>> rows = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            rows.add(List.of((long) (i % 100), "a fairly repetitive string " + (i % 10)));
        }
        Map<String, Long> wireBytes = new HashMap<>();
        try (TestCluster cluster = new TestCluster(1)) {
            for (String compression : List.of("none", "lz4", "zstd")) {
                TaskId task = new TaskId("w-" + compression, 1, 0);
                RecordingListener listener = new RecordingListener();
                TaskControl control = cluster.client(0).startTask(TestCluster.request(task, MemoryScanExec.split(SCHEMA, rows, 1),
                        Optional.of(new ProducerHead.Coalesce()), Map.of("distributed.compression", compression)), listener);
                wireBytes.put(compression, readCountingWireBytes(cluster.worker(0).address(),
                        new DataTicket(task, 0, new ProducerHead.Coalesce(), 0), rows.size()));
                control.endQuery();
                listener.awaitReport();
                control.close();
            }
        }
        // 20,000 rows of about 38 bytes: the tracer sees the uncompressed bodies in full
        assertThat(wireBytes.get("none")).isGreaterThan(600_000L);
        assertThat(wireBytes.get("lz4")).isLessThan(wireBytes.get("none") / 3);
        assertThat(wireBytes.get("zstd")).isLessThan(wireBytes.get("none") / 3);
    }

    /** Reads the ticket's stream over a channel that counts inbound wire bytes; checks the row count. */
    private static long readCountingWireBytes(WorkerAddress worker, DataTicket ticket, int expectedRows) throws Exception {
        AtomicLong bytes = new AtomicLong();
        ClientStreamTracer.Factory tracer = new ClientStreamTracer.Factory() {
            @Override
            public ClientStreamTracer newClientStreamTracer(ClientStreamTracer.StreamInfo info, io.grpc.Metadata headers) {
                return new ClientStreamTracer() {
                    @Override
                    public void inboundWireSize(long size) {
                        bytes.addAndGet(size);
                    }
                };
            }
        };
        ClientInterceptor counting = new ClientInterceptor() {
            @Override
            public <Q, R> ClientCall<Q, R> interceptCall(MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
                return next.newCall(method, options.withStreamTracerFactory(tracer));
            }
        };
        ManagedChannel channel = NettyChannelBuilder.forAddress(worker.host(), worker.port()).usePlaintext()
                .maxInboundMessageSize(Integer.MAX_VALUE).intercept(counting).build();
        long rows = 0;
        try (BufferAllocator allocator = new RootAllocator();
                FlightClient client = FlightGrpcUtils.createFlightClient(allocator, channel);
                FlightStream stream = client.getStream(new Ticket(new WireFormat(PlanCodec.create()).encodeTicket(ticket)))) {
            while (stream.next()) {
                rows += stream.getRoot().getRowCount();
            }
        }
        assertThat(rows).isEqualTo(expectedRows);
        return bytes.get();
    }
}
