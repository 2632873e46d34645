/**
 * Worker discovery (docs/cluster.md): the {@link dev.quiver.distributed.coordinator.discovery.WorkerResolver}
 * SPI the coordinator asks before every query, and its static-list, DNS and file implementations.
 *
 * <p>Invariants: a resolver only says where workers may be; the coordinator asks each one whether it
 * answers (and runs this Quiver version) before it plans the query on the ones that do. Nothing here
 * sets JVM-wide state (no DNS cache properties).
 */
package dev.quiver.distributed.coordinator.discovery;
