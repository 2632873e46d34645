package dev.quiver.distributed.event;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.operator.BoundaryKind;
import dev.quiver.distributed.plan.TaskCountHint;
import dev.quiver.engine.config.Settings;
import dev.quiver.engine.execution.ExecutionPlan;
import dev.quiver.engine.expr.PhysicalExpr;
import java.util.List;

/**
 * What both stage events say about one network boundary and the cluster it runs on (DESIGN §6).
 *
 * @param producerStageId the stage whose output crosses the boundary
 * @param consumerStageId the stage reading it
 * @param kind SHUFFLE or BROADCAST (a coalesce has one consumer task and fires no event)
 * @param keys the shuffle's hash keys over the producer's schema (empty for a broadcast)
 * @param partitionsPerConsumerTask the planned {@code P_c}: the partitions each consumer task reads
 *     (and runs with); a handler may override it with its exact count
 * @param consumerFragment the consumer stage's plan: the operators above the boundary up to the next
 *     one, its inputs still unsized
 * @param consumerHints the consumer stage's own hints known so far (e.g. {@code Exact(1)} from a
 *     merging node or an unsplittable leaf); an exact consumer count must agree with them
 * @param workerCount W, the workers the query may use
 * @param workerMemoryLimits each worker's memory pool limit in bytes (shared by every task it runs)
 * @param maxTasksPerStage the effective {@code distributed.max_tasks_per_stage} (W when the setting is 0)
 * @param maxTasksOrigin how that limit is named in errors
 * @param settings the session's settings, typed: e.g. {@code settings.get(EngineSettings.BATCH_SIZE)} or
 *     {@code settings.get(DistributedSettings.DYNAMIC_BYTES_PER_PARTITION)}
 */
public record StageBoundary(String queryId, int producerStageId, int consumerStageId, BoundaryKind kind, List<PhysicalExpr> keys,
        int partitionsPerConsumerTask, ExecutionPlan consumerFragment, List<TaskCountHint> consumerHints, int workerCount,
        List<Long> workerMemoryLimits, int maxTasksPerStage, String maxTasksOrigin, Settings settings, PlanningMode mode) {
    public StageBoundary {
        requireNonNull(queryId, "queryId is null");
        requireNonNull(kind, "kind is null");
        keys = List.copyOf(requireNonNull(keys, "keys is null"));
        requireNonNull(consumerFragment, "consumerFragment is null");
        consumerHints = List.copyOf(requireNonNull(consumerHints, "consumerHints is null"));
        workerMemoryLimits = List.copyOf(requireNonNull(workerMemoryLimits, "workerMemoryLimits is null"));
        requireNonNull(maxTasksOrigin, "maxTasksOrigin is null");
        requireNonNull(settings, "settings is null");
        requireNonNull(mode, "mode is null");
        if (kind == BoundaryKind.COALESCE) {
            throw new IllegalArgumentException("a coalesce boundary has one consumer task and fires no stage event");
        }
        if (workerCount < 1 || maxTasksPerStage < 1 || partitionsPerConsumerTask < 1) {
            throw new IllegalArgumentException("W, the task limit and P_c must be at least 1: " + workerCount + ", " + maxTasksPerStage + ", "
                    + partitionsPerConsumerTask);
        }
        if (workerMemoryLimits.size() != workerCount) {
            throw new IllegalArgumentException(workerMemoryLimits.size() + " memory limits for " + workerCount + " workers");
        }
    }

    /** The smallest worker memory limit: the one a per-worker requirement must fit. */
    public long minWorkerMemoryLimit() {
        return workerMemoryLimits.stream().mapToLong(Long::longValue).min().orElseThrow();
    }

    /** This boundary with {@code P_c} set by a handler's exact count (what a later event at it reports). */
    public StageBoundary withPartitionsPerConsumerTask(int partitions) {
        return new StageBoundary(queryId, producerStageId, consumerStageId, kind, keys, partitions, consumerFragment, consumerHints, workerCount,
                workerMemoryLimits, maxTasksPerStage, maxTasksOrigin, settings, mode);
    }

    /** How errors and origins name the boundary, e.g. {@code stage 2 → stage 3}. */
    public String describe() {
        return "stage " + producerStageId + " → stage " + consumerStageId;
    }
}
