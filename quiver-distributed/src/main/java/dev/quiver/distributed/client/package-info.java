/**
 * Reaching workers over Arrow Flight, for the coordinator and for workers reading their inputs
 * (docs/distributed.md, "Coordinator side" and "Reading remote partitions"):
 * {@link dev.quiver.distributed.client.WorkerConnections} pools one Flight client per worker and
 * hands out {@link dev.quiver.distributed.client.WorkerClient}s (worker info, starting a task and
 * its control stream, {@link dev.quiver.distributed.client.TaskControl}) and the
 * {@link dev.quiver.distributed.client.FlightExchangeClient} that stage inputs read remote
 * partitions with.
 *
 * <p>Invariants: failures of the transport itself are WORKER_UNREACHABLE or WORKER_LOST and name the
 * worker; batches arrive in the connections' allocator and are moved, not copied, into the reading
 * task's; nothing runs on gRPC threads.
 */
package dev.quiver.distributed.client;
