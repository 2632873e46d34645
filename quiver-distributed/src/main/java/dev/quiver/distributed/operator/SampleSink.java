package dev.quiver.distributed.operator;

import dev.quiver.distributed.protocol.PartitionSample;

/**
 * Where samplers send their reports: a {@link dev.quiver.engine.execution.TaskContext} service
 * that the runner of a producer task provides (on a worker: a sink that sends each sample on the
 * task's control stream). Called once per sampled partition, from the thread that sampled it;
 * implementations must be thread-safe and must not block.
 */
@FunctionalInterface
public interface SampleSink {
    void accept(PartitionSample sample);
}
