package dev.quiver.engine.operator.aggregate;

/**
 * How a {@link HashAggregateExec} takes part in a two-phase aggregation.
 *
 * <ul>
 * <li>{@link #PARTIAL}: raw input rows in, per-group partial states out (group columns, then the
 *     state columns of each aggregate, see {@link AggregateExpr#stateFields()}). Never fails for
 *     memory: when its reservation cannot grow it emits what it holds and starts again.</li>
 * <li>{@link #FINAL}: partial states in (hash-partitioned or coalesced on the group keys), final
 *     values out.</li>
 * <li>{@link #SINGLE}: raw rows in, final values out, in one step (input already partitioned by
 *     the group keys, or one partition). Required for DISTINCT aggregates.</li>
 * </ul>
 */
public enum AggregateMode {
    PARTIAL,
    FINAL,
    SINGLE
}
