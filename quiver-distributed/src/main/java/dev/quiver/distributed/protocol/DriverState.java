package dev.quiver.distributed.protocol;

/**
 * Where the driver leaves of a sampled partition were when its sampling stopped (live metrics):
 * it tells a blocking operator that streams (it output rows while its input still ran: a partial
 * aggregate passing rows through or flushing under memory pressure) from one that had consumed all
 * its input (see {@link PartitionSample#completion()}).
 */
public enum DriverState {
    /** Every driver leaf was still running: no leaf had reached its end of stream. */
    RUNNING,
    /** Every driver leaf had reached its end of stream: the operators above them had all their input. */
    ENDED,
    /**
     * Neither can be told: no driver leaves, a leaf shared with other partitions (a repartition,
     * merge or union on the way, whose end is not this partition's), or some leaves ended and others not.
     */
    UNKNOWN
}
