package dev.quiver.distributed.worker;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.codec.PlanCodec;
import dev.quiver.distributed.protocol.ClusterSecurity;
import dev.quiver.distributed.protocol.WorkerAddress;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.util.ArrayList;
import java.util.List;

/**
 * N workers in this JVM: each a real Flight {@link WorkerServer} on 127.0.0.1 (a free port), with its
 * own allocator, memory pool (and limit) and threads. Used by {@code QuerySession.builder().localWorkers(n)},
 * the CLI's {@code --local-workers} and the tests; {@link #close()} stops every worker and fails if
 * one leaked memory.
 */
public final class LocalCluster implements AutoCloseable {
    private final List<WorkerServer> workers;

    private LocalCluster(List<WorkerServer> workers) {
        this.workers = List.copyOf(workers);
    }

    /**
     * Starts {@code count} workers.
     *
     * @param memoryLimitPerWorker each worker's pool limit in bytes ({@link Long#MAX_VALUE}: unlimited)
     * @param codec decodes the task plans (it must know the custom nodes and expressions the plans use)
     * @param version the version the workers state; the coordinator must run the same
     */
    public static LocalCluster start(int count, long memoryLimitPerWorker, PlanCodec codec, String version) {
        return start(count, memoryLimitPerWorker, codec, version, ClusterSecurity.NONE);
    }

    /** As {@link #start(int, long, PlanCodec, String)}, the workers protected by {@code security} (secret, TLS). */
    public static LocalCluster start(int count, long memoryLimitPerWorker, PlanCodec codec, String version, ClusterSecurity security) {
        requireNonNull(codec, "codec is null");
        requireNonNull(version, "version is null");
        if (count < 1) {
            throw new QuiverException(ErrorCode.INVALID_CONFIGURATION, "a local cluster needs at least one worker, not " + count);
        }
        List<WorkerServer> started = new ArrayList<>();
        try {
            for (int i = 1; i <= count; i++) {
                started.add(WorkerServer.builder().name("worker-" + i).host("127.0.0.1").port(0).memoryLimit(memoryLimitPerWorker)
                        .codec(codec).version(version).security(security).start());
            }
        } catch (RuntimeException e) {
            started.forEach(LocalCluster::closeQuietly);
            throw e;
        }
        return new LocalCluster(started);
    }

    public List<WorkerAddress> addresses() {
        return workers.stream().map(WorkerServer::address).toList();
    }

    public List<WorkerServer> workers() {
        return workers;
    }

    /** Tasks whose state some worker still holds. */
    public int activeTasks() {
        return workers.stream().mapToInt(WorkerServer::activeTasks).sum();
    }

    /** Bytes reserved in the workers' memory pools, together. */
    public long poolUsedBytes() {
        return workers.stream().mapToLong(WorkerServer::poolUsedBytes).sum();
    }

    /** Arrow bytes the workers hold, together. */
    public long allocatedBytes() {
        return workers.stream().mapToLong(WorkerServer::allocatedBytes).sum();
    }

    @Override
    public void close() {
        RuntimeException first = null;
        for (WorkerServer worker : workers) {
            try {
                worker.close();
            } catch (RuntimeException e) {
                first = first == null ? e : first;
            }
        }
        if (first != null) {
            throw first;
        }
    }

    private static void closeQuietly(WorkerServer worker) {
        try {
            worker.close();
        } catch (RuntimeException ignored) {
            // the start failure is what the caller needs to see
        }
    }

    @Override
    public String toString() {
        return "LocalCluster" + addresses();
    }
}
