package dev.quiver.distributed.coordinator;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.client.WorkerClient;
import dev.quiver.distributed.protocol.WorkerAddress;
import dev.quiver.distributed.protocol.WorkerInfo;
import java.util.List;

/**
 * The workers one query is planned on and routed to: those the resolver listed that answered the
 * info call, in the resolver's order, with their info; and those left out because they did not
 * answer (under {@code distributed.unreachable_workers=SKIP}), with why.
 *
 * @param clients the workers that answered, in order
 * @param infos what each of {@code clients} answered, at the same position
 * @param skipped the workers left out of this query
 */
public record QueryWorkers(List<WorkerClient> clients, List<WorkerInfo> infos, List<Skipped> skipped) {
    /** A listed worker that this query does not use, and why ({@code reason} is the info call's error). */
    public record Skipped(WorkerAddress worker, String reason) {
        public Skipped {
            requireNonNull(worker, "worker is null");
            requireNonNull(reason, "reason is null");
        }
    }

    public QueryWorkers {
        clients = List.copyOf(requireNonNull(clients, "clients is null"));
        infos = List.copyOf(requireNonNull(infos, "infos is null"));
        skipped = List.copyOf(requireNonNull(skipped, "skipped is null"));
        if (clients.isEmpty() || clients.size() != infos.size()) {
            throw new IllegalArgumentException("a query needs at least one worker, with its info: " + clients.size() + " clients, " + infos.size() + " infos");
        }
    }

    public List<WorkerAddress> addresses() {
        return clients.stream().map(WorkerClient::address).toList();
    }

    public int size() {
        return clients.size();
    }

    /** Each worker's memory limit, in order (what stage events carry). */
    public List<Long> memoryLimits() {
        return infos.stream().map(WorkerInfo::memoryLimitBytes).toList();
    }
}
