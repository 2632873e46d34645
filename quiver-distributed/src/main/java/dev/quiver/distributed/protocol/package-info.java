/**
 * The protocol between the coordinator and the workers, which both sides use (DESIGN §4;
 * docs/distributed.md, "Workers and the wire protocol"): task records
 * ({@link dev.quiver.distributed.protocol.TaskId}, {@link dev.quiver.distributed.protocol.TaskState},
 * {@link dev.quiver.distributed.protocol.TaskRequest}, {@link dev.quiver.distributed.protocol.TaskReport},
 * {@link dev.quiver.distributed.protocol.TaskError}, operator metrics), worker addresses and info,
 * producer heads and data tickets, the AQE samples a worker reports
 * ({@link dev.quiver.distributed.protocol.PartitionSample} with its key sketch), the control
 * messages and their JSON encoding ({@link dev.quiver.distributed.protocol.WireFormat}), errors across
 * Flight ({@link dev.quiver.distributed.protocol.FlightErrors}) and heartbeats.
 *
 * <p>Invariants: the bottom layer of quiver-distributed — it depends on the engine only (plans
 * inside its documents are written through {@link dev.quiver.distributed.protocol.PlanTreeCodec});
 * a document of another protocol or Quiver version is refused before anything else in it is read;
 * errors keep their {@code ErrorCode} across the wire.
 */
package dev.quiver.distributed.protocol;
