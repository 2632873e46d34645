package dev.quiver.distributed.coordinator;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.client.TaskControl;
import dev.quiver.distributed.protocol.TaskId;
import dev.quiver.distributed.protocol.TaskReport;
import dev.quiver.distributed.protocol.TaskState;
import dev.quiver.distributed.protocol.WorkerAddress;

/** The coordinator's view of one worker task: where it runs, its last known state, its control stream and final report. Guarded by the query's lock. */
final class TrackedTask {
    final TaskId id;
    final WorkerAddress worker;
    TaskState state = TaskState.PLANNED;
    TaskControl control;
    TaskReport report;
    boolean endSent;

    TrackedTask(TaskId id, WorkerAddress worker) {
        this.id = requireNonNull(id, "id is null");
        this.worker = requireNonNull(worker, "worker is null");
    }

    boolean isFinal() {
        return report != null;
    }
}
