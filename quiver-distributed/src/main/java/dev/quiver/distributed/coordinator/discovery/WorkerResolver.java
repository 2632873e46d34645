package dev.quiver.distributed.coordinator.discovery;

import dev.quiver.distributed.protocol.WorkerAddress;
import java.util.List;

/**
 * Where a coordinator's workers are, asked again before every distributed query, so that workers
 * may join and leave between queries (docs/cluster.md). Implementations: {@link StaticWorkerResolver}
 * (a fixed list), {@link DnsWorkerResolver} (every address of a DNS name, e.g. a Kubernetes headless
 * service), {@link FileWorkerResolver} (a file of {@code host:port} lines); {@link WorkerResolvers#parse}
 * reads the {@code --workers} forms.
 *
 * <p>Contract: {@link #resolve()} is called from any thread, may block for name lookups or file
 * reads, and returns the workers in a stable order (routing is round-robin over it) without
 * duplicates. It fails with a {@code QuiverException} naming what it could not read
 * (WORKER_UNREACHABLE for a name that does not resolve, INVALID_CONFIGURATION for a missing or
 * malformed file); it may return an empty list, which the coordinator reports. Whether a listed
 * worker answers is not the resolver's concern: the coordinator asks each one before the query.
 */
public interface WorkerResolver {
    /** The workers as of now. */
    List<WorkerAddress> resolve();

    /** What this resolver reads, as the user wrote it (e.g. {@code dns:quiver-workers:7070}), for messages. */
    String describe();
}
