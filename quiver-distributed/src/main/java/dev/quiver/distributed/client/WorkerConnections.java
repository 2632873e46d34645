package dev.quiver.distributed.client;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.codec.PlanCodec;
import dev.quiver.distributed.protocol.HeartbeatTicker;
import dev.quiver.distributed.protocol.WireFormat;
import dev.quiver.distributed.protocol.WorkerAddress;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.QuiverExecutor;
import dev.quiver.distributed.protocol.ClusterSecret;
import dev.quiver.distributed.protocol.ClusterSecurity;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.stub.MetadataUtils;
import io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.NettyChannelBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Phaser;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLException;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightGrpcUtils;
import org.apache.arrow.memory.BufferAllocator;

/**
 * The Flight connections one process (a worker, or the coordinator) keeps to workers: one
 * {@link FlightClient} per worker address, shared by every control stream and data stream to it,
 * plus the thread that sends heartbeats on the control streams it opened.
 *
 * <p>Batches read through these clients are first allocated from this object's allocator and then
 * transferred to the reading task's allocator, so both must hang under the same
 * {@code RootAllocator}.
 *
 * <p>Close every control stream and data stream before closing this (closing a Flight client with
 * an open stream blocks and reports a leak).
 */
public final class WorkerConnections implements AutoCloseable {
    private static final int KEEPALIVE_SECONDS = 10;
    /** How long {@link #close()} waits for control-stream readers still releasing their stream. */
    private static final long READERS_WAIT_SECONDS = 10;

    private final String name;
    private final BufferAllocator allocator;
    private final QuiverExecutor executor;
    private final WireFormat wire;
    private final ClusterSecurity security;
    private HeartbeatTicker heartbeats;
    private final Map<WorkerAddress, FlightClient> clients = new LinkedHashMap<>();
    /** One party per running control-stream reader, plus {@link #close()}'s own. */
    private final Phaser readers = new Phaser(1);
    private boolean closed;

    /**
     * @param name names the allocator and threads, e.g. {@code coordinator} or {@code worker-1}
     * @param parent the allocator this object's child allocator hangs under
     * @param executor the threads control-stream readers and heartbeats run on (not owned)
     * @param codec the plan codec tickets and task requests are written with
     */
    public WorkerConnections(String name, BufferAllocator parent, QuiverExecutor executor, PlanCodec codec) {
        this(name, parent, executor, codec, ClusterSecurity.NONE);
    }

    /** @param security the cluster secret every call to a worker then carries, and the TLS trust it connects with */
    public WorkerConnections(String name, BufferAllocator parent, QuiverExecutor executor, PlanCodec codec, ClusterSecurity security) {
        this.security = requireNonNull(security, "security is null");
        this.name = requireNonNull(name, "name is null");
        this.executor = requireNonNull(executor, "executor is null");
        this.wire = new WireFormat(requireNonNull(codec, "codec is null"));
        this.allocator = requireNonNull(parent, "parent is null").newChildAllocator("connections-" + name, 0, Long.MAX_VALUE);
    }

    /** A client for the worker at {@code address} (connections are pooled; the client is not yours to close). */
    public FlightWorkerClient workerClient(WorkerAddress address) {
        return new FlightWorkerClient(address, this);
    }

    /** The exchange client tasks read remote partitions with; put it into their {@code TaskContext} services. */
    public FlightExchangeClient exchangeClient() {
        return new FlightExchangeClient(this);
    }

    /** The pooled Flight client for {@code address}, connecting on first use. */
    public synchronized FlightClient client(WorkerAddress address) {
        if (closed) {
            throw new QuiverException(ErrorCode.INTERNAL_ERROR, "the connections of " + name + " are closed");
        }
        return clients.computeIfAbsent(address, this::connect);
    }

    public WireFormat wire() {
        return wire;
    }

    BufferAllocator allocator() {
        return allocator;
    }

    /** The heartbeat thread, started with the first control stream. */
    synchronized HeartbeatTicker heartbeats() {
        if (heartbeats == null) {
            heartbeats = new HeartbeatTicker(executor, name + "-heartbeats");
        }
        return heartbeats;
    }

    /** Stops sending heartbeats for {@code peer} (without starting the thread). */
    synchronized void removeHeartbeat(HeartbeatTicker.Peer peer) {
        if (heartbeats != null) {
            heartbeats.remove(peer);
        }
    }

    /**
     * Runs a control stream's reader on the executor; {@link #close()} waits for it to end. A control
     * stream closed from one of its own listener callbacks cannot wait for its reader, which still
     * holds the stream (and its last message's buffer, from a Flight client's allocator) until the
     * callback returns: without this wait the clients' allocators could be closed under it.
     */
    void executeReader(String threadName, Runnable reader) {
        readers.register();
        try {
            executor.execute(threadName, () -> {
                try {
                    reader.run();
                } finally {
                    readers.arriveAndDeregister();
                }
            });
        } catch (RuntimeException e) {
            readers.arriveAndDeregister();
            throw e;
        }
    }

    /** Waits, up to a bound, until every control-stream reader has released its stream. */
    private void awaitReaders() {
        try {
            readers.awaitAdvanceInterruptibly(readers.arrive(), READERS_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            // a stream left open (against this class's contract): closing the clients reports its leak
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private FlightClient connect(WorkerAddress address) {
        NettyChannelBuilder builder = NettyChannelBuilder.forAddress(address.host(), address.port());
        security.secret().ifPresent(cluster -> {
            Metadata headers = new Metadata();
            headers.put(Metadata.Key.of(ClusterSecret.HEADER, Metadata.ASCII_STRING_MARSHALLER), cluster.token());
            builder.intercept(MetadataUtils.newAttachHeadersInterceptor(headers));
        });
        if (security.trusted().isPresent()) {
            try {
                builder.useTransportSecurity().sslContext(GrpcSslContexts.forClient().trustManager(security.trusted().get().toFile()).build());
            } catch (SSLException e) {
                throw new QuiverException(ErrorCode.INVALID_CONFIGURATION, "Cannot use the trusted certificates " + security.trusted().get() + ": " + e.getMessage(), e);
            }
        } else {
            builder.usePlaintext();
        }
        ManagedChannel channel = builder
                .maxInboundMessageSize(Integer.MAX_VALUE)
                .keepAliveTime(KEEPALIVE_SECONDS, TimeUnit.SECONDS)
                .keepAliveTimeout(KEEPALIVE_SECONDS, TimeUnit.SECONDS)
                .build();
        BufferAllocator clientAllocator = allocator.newChildAllocator("flight-client-" + address, 0, Long.MAX_VALUE);
        try {
            return FlightGrpcUtils.createFlightClient(clientAllocator, channel);
        } catch (RuntimeException e) {
            channel.shutdownNow();
            clientAllocator.close();
            throw e;
        }
    }

    @Override
    public void close() {
        List<FlightClient> toClose;
        HeartbeatTicker ticker;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            toClose = new ArrayList<>(clients.values());
            clients.clear();
            ticker = heartbeats;
        }
        if (ticker != null) {
            ticker.close();
        }
        awaitReaders();
        RuntimeException first = null;
        for (FlightClient client : toClose) {
            try {
                client.close();
            } catch (Exception e) {
                first = first != null ? first : new QuiverException(ErrorCode.INTERNAL_ERROR, "closing a Flight client of " + name + " failed: " + e, e);
            }
        }
        for (BufferAllocator child : new ArrayList<>(allocator.getChildAllocators())) {
            try {
                child.close();
            } catch (RuntimeException e) {
                first = first != null ? first : e;
            }
        }
        try {
            allocator.close();
        } catch (RuntimeException e) {
            first = first != null ? first : e;
        }
        if (first != null) {
            throw first;
        }
    }
}
