/**
 * The stage-event SPI (DESIGN §6): {@link dev.quiver.distributed.event.DynamicStageBuiltEvent} fires
 * for every stage that feeds a shuffle or broadcast once it is sized and before it is dispatched,
 * {@link dev.quiver.distributed.event.StageSampledEvent} after AQE sampled it. A
 * {@link dev.quiver.distributed.event.StageEventHandler} may rewrite the producer (stage-built only),
 * ask for an advisory or an exact consumer task count, or fail the query. The coordinator applies
 * responses through {@link dev.quiver.distributed.planner.StageEventDispatcher}.
 */
package dev.quiver.distributed.event;
