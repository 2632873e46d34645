package dev.quiver.distributed.worker;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.client.WorkerConnections;
import dev.quiver.distributed.codec.PlanCodec;
import dev.quiver.distributed.protocol.ClusterSecurity;
import dev.quiver.distributed.protocol.HeartbeatTicker;
import dev.quiver.distributed.protocol.WorkerAddress;
import dev.quiver.distributed.protocol.WorkerInfo;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.QuiverExecutor;
import dev.quiver.engine.memory.MemoryPool;
import io.grpc.netty.NettyServerBuilder;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.arrow.flight.FlightServer;
import org.apache.arrow.flight.Location;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

/**
 * A Quiver worker: an Arrow Flight server that runs tasks (docs/distributed.md, "Workers").
 *
 * <p>It owns a child allocator, a {@link MemoryPool} with the configured limit shared by all its
 * tasks, a {@link QuiverExecutor} whose named threads run Flight handlers, data streams and task
 * partitions, and the Flight connections its tasks read their inputs with. Endpoints: the
 * {@code worker-info} action, one DoExchange control stream per task, DoGet per (task, output
 * partition, consumer task).
 *
 * <pre>{@code
 * try (WorkerServer worker = WorkerServer.builder().version("0.1.0").memoryLimit(1L << 30).start()) {
 *     WorkerAddress address = worker.address();   // 127.0.0.1:<any free port>
 * }
 * }</pre>
 *
 * <p>{@link #close()} stops every task, waits for them to let go, and frees everything; the
 * methods {@link #activeTasks()}, {@link #allocatedBytes()} and {@link #poolUsedBytes()} let tests
 * check that nothing is left behind.
 */
public final class WorkerServer implements AutoCloseable {
    private final String name;
    private final String version;
    private final int cores;
    private final BufferAllocator ownedRoot;
    private final BufferAllocator allocator;
    private final MemoryPool pool;
    private final QuiverExecutor executor;
    private final WorkerConnections connections;
    private final TaskRegistry tasks = new TaskRegistry();
    private final HeartbeatTicker heartbeats;
    private final Duration unknownTaskWait;
    private final FlightServer flight;
    private final WorkerAddress address;
    private boolean closed;

    private WorkerServer(Builder builder) {
        this.name = builder.name;
        this.version = requireNonNull(builder.version, "version is null: every worker states its Quiver version");
        this.cores = builder.cores;
        this.unknownTaskWait = builder.unknownTaskWait;
        this.ownedRoot = builder.allocator == null ? new RootAllocator() : null;
        BufferAllocator parent = builder.allocator == null ? ownedRoot : builder.allocator;
        this.allocator = parent.newChildAllocator(name, 0, Long.MAX_VALUE);
        this.pool = new MemoryPool(builder.memoryLimit);
        this.executor = new QuiverExecutor(name);
        this.connections = new WorkerConnections(name, allocator, executor, builder.codec, builder.security);
        this.heartbeats = new HeartbeatTicker(executor, "control-heartbeats");
        BufferAllocator flightAllocator = allocator.newChildAllocator("flight-server", 0, Long.MAX_VALUE);
        Consumer<NettyServerBuilder> keepalive = netty -> netty
                .keepAliveTime(10, TimeUnit.SECONDS).keepAliveTimeout(10, TimeUnit.SECONDS)
                .permitKeepAliveTime(5, TimeUnit.SECONDS).permitKeepAliveWithoutCalls(true);
        boolean tls = builder.security.certificate().isPresent();
        FlightServer.Builder flightBuilder = FlightServer.builder(flightAllocator,
                        tls ? Location.forGrpcTls(builder.host, builder.port) : Location.forGrpcInsecure(builder.host, builder.port), new WorkerProducer(this))
                .executor(executor.asExecutorService())
                .transportHint("grpc.builderConsumer", keepalive);
        builder.security.secret().ifPresent(secret -> flightBuilder.middleware(ClusterSecretCheck.KEY, new ClusterSecretCheck.Factory(secret, name)));
        FlightServer server = null;
        try {
            if (tls) {
                flightBuilder.useTls(builder.security.certificate().get().toFile(), builder.security.privateKey().get().toFile());
            }
            server = flightBuilder.build();
            server.start();
        } catch (IOException | RuntimeException e) {
            if (server != null) {
                closeQuietly(server);
            }
            heartbeats.close();
            connections.close();
            executor.close();
            flightAllocator.close();
            allocator.close();
            if (ownedRoot != null) {
                ownedRoot.close();
            }
            throw new QuiverException(ErrorCode.WORKER_UNREACHABLE, "cannot start a worker on " + builder.host + ":" + builder.port + ": " + e.getMessage(), e);
        }
        this.flight = server;
        this.address = new WorkerAddress(builder.host, server.getPort());
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Where this worker listens (the actual port when started with port 0). */
    public WorkerAddress address() {
        return address;
    }

    /** What the {@code worker-info} action answers. */
    public WorkerInfo info() {
        return new WorkerInfo(address, version, cores, pool.limit());
    }

    public String version() {
        return version;
    }

    /** Tasks whose state the worker still holds (0 once every query on it ended). */
    public int activeTasks() {
        return tasks.size();
    }

    /** Arrow bytes allocated by this worker's tasks, streams and connections. */
    public long allocatedBytes() {
        return allocator.getAllocatedMemory();
    }

    /** Bytes reserved in this worker's memory pool. */
    public long poolUsedBytes() {
        return pool.used();
    }

    public MemoryPool memoryPool() {
        return pool;
    }

    /** Threads of this worker's executor currently running something (heartbeats and Flight calls included). */
    public int activeThreads() {
        return executor.activeThreads();
    }

    BufferAllocator allocator() {
        return allocator;
    }

    QuiverExecutor executor() {
        return executor;
    }

    WorkerConnections connections() {
        return connections;
    }

    TaskRegistry tasks() {
        return tasks;
    }

    HeartbeatTicker heartbeats() {
        return heartbeats;
    }

    Duration unknownTaskWait() {
        return unknownTaskWait;
    }

    /**
     * Stops every task (their control streams fail with the reason, no final report), waits until
     * they let go, shuts the Flight server down and frees the pool, the threads and the allocator.
     * Throws if memory leaked.
     */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        List<WorkerTask> remaining = tasks.close();
        for (WorkerTask task : remaining) {
            task.shutdown("worker " + address + " is shutting down");
        }
        flight.shutdown();
        try {
            if (!flight.awaitTermination(5, TimeUnit.SECONDS)) {
                closeQuietly(flight);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        closeQuietly(flight);
        heartbeats.close();
        for (WorkerTask task : remaining) {
            task.close();
        }
        connections.close();
        executor.close();
        for (BufferAllocator child : List.copyOf(allocator.getChildAllocators())) {
            child.close();
        }
        allocator.close();
        if (ownedRoot != null) {
            ownedRoot.close();
        }
    }

    private static void closeQuietly(FlightServer server) {
        try {
            server.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            // already shutting down; what matters is the allocator check that follows
        }
    }

    /** Settings of a worker; {@link #version} is required. */
    public static final class Builder {
        private String name = "worker";
        private String host = "127.0.0.1";
        private int port;
        private long memoryLimit = Long.MAX_VALUE;
        private int cores = Runtime.getRuntime().availableProcessors();
        private String version;
        private PlanCodec codec = PlanCodec.create();
        private BufferAllocator allocator;
        private Duration unknownTaskWait = Duration.ofSeconds(5);
        private ClusterSecurity security = ClusterSecurity.NONE;

        private Builder() {}

        /**
         * The cluster's secret and TLS: with a secret the worker refuses every call without its token
         * (UNAUTHENTICATED), with a certificate it serves TLS; its own calls to other workers carry the
         * token and trust the cluster's certificates. See {@link ClusterSecurity}.
         */
        public Builder security(ClusterSecurity clusterSecurity) {
            this.security = requireNonNull(clusterSecurity, "clusterSecurity is null");
            return this;
        }

        /** Names the worker's threads and allocator, e.g. {@code worker-2} in a local cluster. */
        public Builder name(String name) {
            this.name = requireNonNull(name, "name is null");
            return this;
        }

        public Builder host(String host) {
            this.host = requireNonNull(host, "host is null");
            return this;
        }

        /** The port to listen on; 0 (the default) picks a free one. */
        public Builder port(int port) {
            if (port < 0 || port > 65535) {
                throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "not a port: " + port);
            }
            this.port = port;
            return this;
        }

        /** The limit of the worker's memory pool in bytes ({@link Long#MAX_VALUE}: unlimited, the default). */
        public Builder memoryLimit(long bytes) {
            if (bytes <= 0) {
                throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "the memory limit must be positive: " + bytes);
            }
            this.memoryLimit = bytes;
            return this;
        }

        /** The cores the worker reports (its tasks run with the {@code target_partitions} their request carries). */
        public Builder cores(int cores) {
            if (cores < 1) {
                throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "cores must be at least 1: " + cores);
            }
            this.cores = cores;
            return this;
        }

        /** The Quiver version; task requests from a coordinator of another version are refused. */
        public Builder version(String version) {
            this.version = requireNonNull(version, "version is null");
            return this;
        }

        /** Decodes task plans; pass one that knows the custom nodes your plans use. */
        public Builder codec(PlanCodec codec) {
            this.codec = requireNonNull(codec, "codec is null");
            return this;
        }

        /** The allocator the worker's child allocator hangs under (default: its own RootAllocator). */
        public Builder allocator(BufferAllocator allocator) {
            this.allocator = requireNonNull(allocator, "allocator is null");
            return this;
        }

        /** How long a data request waits for a task this worker does not know yet (default 5 s). */
        public Builder unknownTaskWait(Duration wait) {
            this.unknownTaskWait = requireNonNull(wait, "wait is null");
            return this;
        }

        /** Starts the Flight server; fails with WORKER_UNREACHABLE if it cannot listen. */
        public WorkerServer start() {
            return new WorkerServer(this);
        }
    }
}
