package dev.quiver.session;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.coordinator.Coordinator;
import dev.quiver.distributed.coordinator.LocalCluster;
import dev.quiver.distributed.plan.DistributedPlan;
import dev.quiver.distributed.plan.DistributedPlanner;
import dev.quiver.distributed.plan.DistributedPlannerSettings;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.execution.ExecutionPlan;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a session with workers holds for its distributed queries: the {@link Coordinator} and what
 * it runs on (the Flight connections, and the in-JVM workers of a local cluster), closed in that
 * order; and the planning of a physical plan into stages under the session's settings.
 */
final class DistributedRuntime implements AutoCloseable {
    private final Coordinator coordinator;
    private final List<AutoCloseable> resources;
    private final Optional<LocalCluster> localCluster;

    DistributedRuntime(Coordinator coordinator, List<AutoCloseable> resources, Optional<LocalCluster> localCluster) {
        this.coordinator = requireNonNull(coordinator, "coordinator is null");
        this.resources = List.copyOf(requireNonNull(resources, "resources is null"));
        this.localCluster = requireNonNull(localCluster, "localCluster is null");
    }

    Coordinator coordinator() {
        return coordinator;
    }

    Optional<LocalCluster> localCluster() {
        return localCluster;
    }

    /** The stages of {@code physical} for this cluster under {@code settings}. */
    DistributedPlan plan(ExecutionPlan physical, SessionSettings settings) {
        DistributedSettings distributed = settings.distributed();
        if (distributed.dynamicTaskCount()) {
            throw new QuiverException(ErrorCode.NOT_SUPPORTED, "distributed.dynamic_task_count=true (adaptive task counts) is not available yet;"
                    + " SET distributed.dynamic_task_count = false to plan task counts statically");
        }
        DistributedPlannerSettings planner = new DistributedPlannerSettings(coordinator.workers().size(), distributed.maxTasksPerStage(),
                distributed.bytesPerPartitionForScans(), distributed.broadcastJoins(), settings.targetPartitions());
        return new DistributedPlanner(planner).plan(physical);
    }

    /** The settings every task request carries: batch size, partitions and the distributed.* settings. */
    static Map<String, String> taskSettings(SessionSettings settings) {
        Map<String, String> map = new LinkedHashMap<>();
        map.put("batch_size", Integer.toString(settings.batchSize()));
        map.put("target_partitions", Integer.toString(settings.targetPartitions()));
        map.putAll(settings.distributed().asMap());
        return map;
    }

    @Override
    public void close() {
        RuntimeException first = null;
        try {
            coordinator.close();
        } catch (RuntimeException e) {
            first = e;
        }
        for (AutoCloseable resource : resources) {
            try {
                resource.close();
            } catch (Exception e) {
                first = first == null ? new QuiverException(ErrorCode.INTERNAL_ERROR, "closing " + resource + " failed: " + e.getMessage(), e) : first;
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
