package dev.quiver.distributed.protocol;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.expr.PhysicalExpr;
import java.util.List;

/**
 * The top of a producer stage, owned by the boundary above it and bound late (DESIGN §4): it is
 * fixed once the consumer's task count {@code T_c} is known and travels with the request that
 * executes the task (the control request, or the first data ticket). The worker checks that every
 * ticket asking for data names the head the task was bound to; a mismatch is an error, never a
 * silent re-partitioning.
 */
public sealed interface ProducerHead {
    /** How many output partitions a producer task with {@code producerPartitions} partitions serves under this head. */
    int outputPartitions(int producerPartitions);

    /** {@code Hash(keys, P_c × T_c)}: consumer task t reads partitions {@code [P_c·t, P_c·t + P_c)}. */
    record Shuffle(List<PhysicalExpr> keys, int partitionsPerConsumerTask, int consumerTasks) implements ProducerHead {
        public Shuffle {
            keys = List.copyOf(requireNonNull(keys, "keys is null"));
            if (keys.isEmpty() || partitionsPerConsumerTask < 1 || consumerTasks < 1) {
                throw new IllegalArgumentException("a shuffle head needs keys, P_c >= 1 and T_c >= 1: " + keys + ", " + partitionsPerConsumerTask + ", " + consumerTasks);
            }
        }

        @Override
        public int outputPartitions(int producerPartitions) {
            return Math.multiplyExact(partitionsPerConsumerTask, consumerTasks);
        }

        /** The first producer partition consumer task {@code consumerTask} reads. */
        public int firstPartitionOf(int consumerTask) {
            return partitionsPerConsumerTask * consumerTask;
        }
    }

    /** The producer's own partitions, all read by the single consumer task. */
    record Coalesce() implements ProducerHead {
        @Override
        public int outputPartitions(int producerPartitions) {
            return producerPartitions;
        }
    }

    /** The producer's own partitions, each replayed to every one of {@code consumerTasks} consumer tasks. */
    record Broadcast(int consumerTasks) implements ProducerHead {
        public Broadcast {
            if (consumerTasks < 1) {
                throw new IllegalArgumentException("a broadcast head needs T_c >= 1: " + consumerTasks);
            }
        }

        @Override
        public int outputPartitions(int producerPartitions) {
            return producerPartitions;
        }
    }
}
