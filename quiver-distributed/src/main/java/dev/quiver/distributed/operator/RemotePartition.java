package dev.quiver.distributed.operator;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.protocol.DataTicket;
import dev.quiver.distributed.protocol.WorkerAddress;

/** One stream a consumer reads: a ticket and the worker that serves it. */
public record RemotePartition(WorkerAddress worker, DataTicket ticket) {
    public RemotePartition {
        requireNonNull(worker, "worker is null");
        requireNonNull(ticket, "ticket is null");
    }
}
