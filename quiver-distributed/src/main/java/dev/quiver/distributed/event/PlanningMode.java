package dev.quiver.distributed.event;

/** How the stage an event describes was sized: at planning time or by AQE at run time (DESIGN §5). */
public enum PlanningMode {
    /** Static planning: statistics are the sources' estimates. */
    STATIC,
    /** {@code distributed.dynamic_task_count=true}: the stage was sized when it closed, from its inputs' samples. */
    ADAPTIVE
}
