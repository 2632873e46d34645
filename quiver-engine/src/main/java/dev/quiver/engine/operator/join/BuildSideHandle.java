package dev.quiver.engine.operator.join;

/**
 * How one probe partition reaches its build side: its own ({@link PartitionBuild}, partitioned
 * joins) or one shared by all probe partitions ({@link SharedBuild}, collect-left and nested-loop
 * joins). Used by the one thread driving the probe partition.
 */
interface BuildSideHandle {
    /** The build side, built on first call (by this thread, or by another partition's while this waits). */
    BuildSide acquire();

    /**
     * Records that this partition has probed all its input, and returns whether it is the last to
     * do so and must therefore emit the build rows chosen by their match marks.
     */
    boolean finishProbe();

    /** Lets go of the build side; the last holder frees it. Idempotent. */
    void release();
}
