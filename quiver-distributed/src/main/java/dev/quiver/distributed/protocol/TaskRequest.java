package dev.quiver.distributed.protocol;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.config.Settings;
import dev.quiver.engine.execution.ExecutionPlan;
import java.util.Optional;

/**
 * What the coordinator sends to start one task: the task's variant of its stage plan (leaves
 * reading the task's share, {@link dev.quiver.distributed.operator.StageInputExec}s bound), the
 * producer head if it is already known (else the first data ticket binds it), the session settings
 * the task runs with (those of {@link dev.quiver.distributed.config.DistributedSettings#TASK_REGISTRY}:
 * {@code batch_size}, {@code target_partitions}, {@code distributed.compression}, ...), typed, and the
 * coordinator's version, which the worker checks.
 */
public record TaskRequest(TaskId taskId, ExecutionPlan plan, Optional<ProducerHead> head, Settings settings, String version) {
    public TaskRequest {
        requireNonNull(taskId, "taskId is null");
        requireNonNull(plan, "plan is null");
        requireNonNull(head, "head is null");
        requireNonNull(settings, "settings is null");
        requireNonNull(version, "version is null");
    }
}
