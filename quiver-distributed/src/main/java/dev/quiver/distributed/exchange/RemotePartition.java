package dev.quiver.distributed.exchange;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.worker.WorkerAddress;

/** One stream a consumer reads: a ticket and the worker that serves it. */
public record RemotePartition(WorkerAddress worker, DataTicket ticket) {
    public RemotePartition {
        requireNonNull(worker, "worker is null");
        requireNonNull(ticket, "ticket is null");
    }
}
