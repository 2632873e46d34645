package dev.quiver.distributed.client;

import dev.quiver.distributed.protocol.PartitionSample;
import dev.quiver.distributed.protocol.TaskError;
import dev.quiver.distributed.protocol.TaskId;
import dev.quiver.distributed.protocol.TaskReport;
import dev.quiver.distributed.protocol.TaskState;
import dev.quiver.engine.error.QuiverException;
import java.util.Optional;

/**
 * What the coordinator hears from one task's control stream. Calls for one task arrive in order,
 * from a transport thread; implementations must not block.
 */
public interface TaskListener {
    /** The worker reports a state change (RUNNING, FINISHED, FAILED with its error, ...). */
    void onStateChanged(TaskId task, TaskState state, Optional<TaskError> error);

    /** The worker sampled one output partition of the task (AQE, DESIGN §5 step 5). */
    default void onSample(TaskId task, PartitionSample sample) {}

    /** The worker's final report, after the coordinator ended the query on this stream; the stream is complete. */
    void onFinalReport(TaskReport report);

    /**
     * The control stream broke before the final report (the worker died, stopped answering
     * heartbeats, or shut down): the task counts as FAILED with this error, which names the worker.
     * (A task the worker refuses never gets this far: {@code startTask} throws instead.)
     */
    void onStreamFailed(TaskId task, QuiverException error);
}
