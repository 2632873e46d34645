package dev.quiver.distributed.protocol;

import static java.util.Objects.requireNonNull;

import java.util.Optional;

/**
 * A message on a task's control stream after the request that opened it (which travels in the
 * stream's descriptor). Each is one JSON document in a Flight {@code app_metadata}; see
 * {@link WireFormat}.
 */
public sealed interface ControlMessage {
    /** Worker → coordinator, first message: the task is registered (state SENT); its producers may be read. */
    record Ack(TaskId task) implements ControlMessage {
        public Ack {
            requireNonNull(task, "task is null");
        }
    }

    /** Worker → coordinator: the task changed state (RUNNING, FINISHED, FAILED with its error). */
    record StateChanged(TaskId task, TaskState state, Optional<TaskError> error) implements ControlMessage {
        public StateChanged {
            requireNonNull(task, "task is null");
            requireNonNull(state, "state is null");
            requireNonNull(error, "error is null");
        }
    }

    /** Either direction: the sender is alive. */
    record Heartbeat() implements ControlMessage {}

    /** Worker → coordinator, last message, after the coordinator half-closed the stream. */
    record FinalReport(TaskReport report) implements ControlMessage {
        public FinalReport {
            requireNonNull(report, "report is null");
        }
    }

    /** Worker → coordinator: one output partition's AQE sample (DESIGN §5 step 5), sent once per sampled partition. */
    record Sample(TaskId task, PartitionSample sample) implements ControlMessage {
        public Sample {
            requireNonNull(task, "task is null");
            requireNonNull(sample, "sample is null");
        }
    }
}
