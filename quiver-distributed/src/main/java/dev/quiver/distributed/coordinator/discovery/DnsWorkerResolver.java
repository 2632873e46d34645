package dev.quiver.distributed.coordinator.discovery;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.protocol.WorkerAddress;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;

/**
 * {@code dns:NAME:PORT}: every address (A and AAAA record) {@code NAME} resolves to is a worker
 * listening on {@code PORT} — a Kubernetes headless service, whose name resolves to the ready pods.
 * The workers are addressed by IP, sorted, so that routing does not follow the order a DNS server
 * rotates its records in.
 *
 * <p>Caching: lookups go through {@link InetAddress#getAllByName}, so the JVM's name cache applies
 * ({@code networkaddress.cache.ttl}, 30 s by default without a security manager; negative answers
 * {@code networkaddress.cache.negative.ttl}, 10 s). A worker that joins is therefore seen up to that
 * long after its record appears; this class sets no JVM-wide property. One that leaves sooner is
 * skipped by the coordinator's reachability check ({@code distributed.unreachable_workers}).
 */
public final class DnsWorkerResolver implements WorkerResolver {
    /** How a name becomes addresses; {@link InetAddress#getAllByName} outside tests. */
    @FunctionalInterface
    public interface HostLookup {
        InetAddress[] lookup(String name) throws UnknownHostException;
    }

    private final String name;
    private final int port;
    private final HostLookup lookup;

    public DnsWorkerResolver(String name, int port) {
        this(name, port, InetAddress::getAllByName);
    }

    public DnsWorkerResolver(String name, int port, HostLookup lookup) {
        this.name = requireNonNull(name, "name is null");
        this.port = port;
        this.lookup = requireNonNull(lookup, "lookup is null");
        // validates the name and port as a worker address would
        new WorkerAddress(name, port);
    }

    @Override
    public List<WorkerAddress> resolve() {
        InetAddress[] addresses;
        try {
            addresses = lookup.lookup(name);
        } catch (UnknownHostException e) {
            throw new QuiverException(ErrorCode.WORKER_UNREACHABLE, "the worker name " + name + " (" + describe() + ") does not resolve: "
                    + e.getMessage() + "; check the service name and that its pods are ready", e);
        }
        return Arrays.stream(addresses).map(InetAddress::getHostAddress).distinct().sorted().map(host -> new WorkerAddress(host, port)).toList();
    }

    @Override
    public String describe() {
        return "dns:" + name + ":" + port;
    }

    @Override
    public String toString() {
        return describe();
    }
}
