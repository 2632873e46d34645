/**
 * The reference stage-event handler, {@link dev.quiver.distributed.handler.AggregateMemorySizingHandler}
 * (DESIGN §6; docs/exact-consumer-tasks.md): sizes the consumer of a high-cardinality GROUP BY so
 * that its hash tables fit the workers' memory, and requires that count exactly. It uses only the
 * public stage-event SPI ({@code dev.quiver.distributed.event}), as an application's handler would.
 */
package dev.quiver.distributed.handler;
