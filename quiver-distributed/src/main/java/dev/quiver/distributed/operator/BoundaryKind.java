package dev.quiver.distributed.operator;

/** The network boundaries the distributed planner inserts between stages (DESIGN §4). */
public enum BoundaryKind {
    /** Above a hash repartition: producer tasks write {@code P_c × T_c} hash partitions; consumer task t reads {@code [P_c·t, P_c·t + P_c)} of every producer task. */
    SHUFFLE,
    /** Below a coalesce or sort-preserving merge: one consumer task reads every partition of every producer task. */
    COALESCE,
    /** The build side of a broadcast join: every producer task's output is replayed to every consumer task. */
    BROADCAST
}
