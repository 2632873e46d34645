package dev.quiver.engine.execution;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.expr.PhysicalExpr;
import java.util.List;

/** How the output of an {@link ExecutionPlan} is split into partitions. */
public sealed interface Partitioning {
    int partitionCount();

    static Partitioning single() {
        return new Single();
    }

    /** Rows spread across {@code n} partitions in no known way. */
    record Unknown(int partitionCount) implements Partitioning {
        public Unknown {
            checkCount(partitionCount);
        }

        @Override
        public String toString() {
            return "Unknown(" + partitionCount + ")";
        }
    }

    /** Rows with equal values of {@code keys} are in the same partition, chosen by the partition hash. */
    record Hash(List<PhysicalExpr> keys, int partitionCount) implements Partitioning {
        public Hash {
            keys = List.copyOf(requireNonNull(keys, "keys is null"));
            checkCount(partitionCount);
        }

        @Override
        public String toString() {
            return "Hash(" + keys + ", " + partitionCount + ")";
        }
    }

    /** Batches dealt to {@code n} partitions in turn. */
    record RoundRobin(int partitionCount) implements Partitioning {
        public RoundRobin {
            checkCount(partitionCount);
        }

        @Override
        public String toString() {
            return "RoundRobin(" + partitionCount + ")";
        }
    }

    /** Exactly one partition. */
    record Single() implements Partitioning {
        @Override
        public int partitionCount() {
            return 1;
        }

        @Override
        public String toString() {
            return "Single";
        }
    }

    private static void checkCount(int partitionCount) {
        if (partitionCount < 1) {
            throw PlanChecks.planError("Partitioning", "partition count must be at least 1: %s", partitionCount);
        }
    }
}
