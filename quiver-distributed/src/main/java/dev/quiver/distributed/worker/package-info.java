/**
 * The worker: an Arrow Flight server that runs tasks (DESIGN §4, docs/distributed.md "The
 * worker"): {@link dev.quiver.distributed.worker.WorkerServer} with its Flight endpoints, one
 * control session and task runtime per task, the partition senders of DoGet, broadcast buffers;
 * and {@link dev.quiver.distributed.worker.LocalCluster}, workers started in this JVM.
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
 *       worker's {@code QuiverExecutor}, named.</li>
 * </ul>
 */
package dev.quiver.distributed.worker;
