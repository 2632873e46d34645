package dev.quiver.engine.operator.join;

/** How a hash join's inputs are partitioned. */
public enum PartitionMode {
    /** Both inputs hash-partitioned on the join keys into the same number of partitions; partition i joins partition i. */
    PARTITIONED,
    /** The left (build) input is collected from all its partitions once and shared; each right partition probes it. */
    COLLECT_LEFT
}
