package dev.quiver.session;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.client.WorkerConnections;
import dev.quiver.distributed.codec.PlanCodec;
import dev.quiver.distributed.coordinator.Coordinator;
import dev.quiver.distributed.coordinator.CoordinatorConfig;
import dev.quiver.distributed.coordinator.discovery.StaticWorkerResolver;
import dev.quiver.distributed.coordinator.discovery.WorkerResolver;
import dev.quiver.distributed.coordinator.spi.QueryEventListener;
import dev.quiver.distributed.planner.StageEventDispatcher;
import dev.quiver.distributed.protocol.ClusterSecurity;
import dev.quiver.distributed.protocol.QuiverVersion;
import dev.quiver.distributed.worker.LocalCluster;
import dev.quiver.engine.execution.QuiverExecutor;
import dev.quiver.engine.source.tpch.TpchCatalog;
import dev.quiver.engine.spi.Catalog;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.BufferAllocator;

/** Starts a session's distributed runtime: a local cluster if asked for, the Flight connections to the workers, the coordinator. */
final class ClusterSetup {
    /**
     * Where the workers are: running ones that {@code resolver} names before each query, or
     * {@code localWorkers} to start in this JVM; {@code security} protects every call to them (local
     * workers are started with it).
     */
    record Spec(Optional<WorkerResolver> resolver, int localWorkers, long memoryLimitPerWorker, ClusterSecurity security) {
        Spec {
            requireNonNull(resolver, "resolver is null");
            requireNonNull(security, "security is null");
        }

        Spec with(ClusterSecurity clusterSecurity) {
            return new Spec(resolver, localWorkers, memoryLimitPerWorker, clusterSecurity);
        }
    }

    private ClusterSetup() {}

    static DistributedRuntime start(Spec spec, Catalog catalog, BufferAllocator root, QuiverExecutor executor, List<QueryEventListener> listeners,
            Duration finalizationTimeout, StageEventDispatcher dispatcher, SessionExtensions extensions) {
        PlanCodec codec = codec(catalog, extensions);
        List<AutoCloseable> opened = new ArrayList<>();
        try {
            Optional<LocalCluster> local = Optional.empty();
            Optional<WorkerResolver> resolver = spec.resolver();
            if (spec.localWorkers() > 0) {
                LocalCluster cluster = LocalCluster.start(spec.localWorkers(), spec.memoryLimitPerWorker(), codec, QuiverVersion.CURRENT, spec.security());
                opened.add(cluster);
                local = Optional.of(cluster);
                resolver = Optional.of(new StaticWorkerResolver(cluster.addresses()));
            }
            WorkerConnections connections = new WorkerConnections("coordinator", root, executor, codec, spec.security());
            opened.add(0, connections);
            Coordinator coordinator = new Coordinator(resolver.orElseThrow(), connections::workerClient, connections.exchangeClient(),
                    CoordinatorConfig.defaults(QuiverVersion.CURRENT).withFinalizationTimeout(finalizationTimeout), listeners);
            return new DistributedRuntime(coordinator, opened, local, dispatcher, executor, extensions.estimators());
        } catch (RuntimeException e) {
            for (AutoCloseable resource : opened) {
                try {
                    resource.close();
                } catch (Exception suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            throw e;
        }
    }

    /**
     * The SQL layer's plan codec with the session's own codecs; the in-JVM workers of a TPC-H session
     * decode scans against the session's own catalog (and its cache) instead of generating the data again.
     */
    private static PlanCodec codec(Catalog catalog, SessionExtensions extensions) {
        PlanCodec.Builder builder = extensions.addCodecs(SqlPlanCodec.builder());
        if (catalog instanceof TpchCatalog tpch) {
            builder.tpchCatalogs(scaleFactor -> scaleFactor == tpch.scaleFactor() ? tpch : new TpchCatalog(scaleFactor));
        }
        return builder.build();
    }
}
