package dev.quiver.distributed.worker;

import dev.quiver.distributed.protocol.PartitionSample;
import dev.quiver.distributed.protocol.TaskError;
import dev.quiver.distributed.protocol.TaskState;
import java.util.Optional;

/** The control stream of a worker task: hears its state changes, in order, and can stop it. */
interface TaskObserver {
    void stateChanged(TaskState state, Optional<TaskError> error);

    /** One partition's AQE sample, to send to the coordinator; must not block. */
    void sample(PartitionSample sample);

    /** Stops the task and its control stream without a final report (the worker shuts down). */
    void stop(String reason);
}
