/**
 * Workers and the coordinator's connection to them, over Arrow Flight (DESIGN §4,
 * docs/distributed.md "Workers and the wire protocol"): {@link dev.quiver.distributed.worker.WorkerServer}
 * runs tasks; {@link dev.quiver.distributed.worker.WorkerConnections} pools the Flight clients a
 * process uses to reach workers and hands out {@link dev.quiver.distributed.worker.FlightWorkerClient}s
 * and the Flight exchange client; {@link dev.quiver.distributed.worker.WireFormat} writes the
 * protocol's JSON documents.
 *
 * <p>Invariants:
 * <ul>
 *   <li>A task exists on a worker from its acknowledgement until its control stream ends; then its
 *       allocator, pool reservations and threads are gone. Every task ends FINISHED, FAILED,
 *       CANCELLED or SKIPPED; only a task that got a data request, or that samples its output for AQE,
 *       is ever RUNNING (the others end SKIPPED).</li>
 *   <li>A task's producer head is bound once; every data request is checked against it and against
 *       the partitions its consumer task may read. Nothing is silently re-partitioned.</li>
 *   <li>Nothing runs on gRPC threads: control streams, data streams and task partitions run on the
 *       worker's (or coordinator's) {@code QuiverExecutor}, named.</li>
 *   <li>Errors keep their {@code ErrorCode} across the wire; failures of the transport itself are
 *       WORKER_UNREACHABLE or WORKER_LOST and name the worker.</li>
 * </ul>
 */
package dev.quiver.distributed.worker;
