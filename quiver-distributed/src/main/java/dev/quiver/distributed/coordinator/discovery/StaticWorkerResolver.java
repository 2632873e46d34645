package dev.quiver.distributed.coordinator.discovery;

import static java.util.Objects.requireNonNull;

import dev.quiver.distributed.protocol.WorkerAddress;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.stream.Collectors;

/** A fixed list of workers ({@code --workers host:port,...}). */
public record StaticWorkerResolver(List<WorkerAddress> workers) implements WorkerResolver {
    public StaticWorkerResolver {
        workers = List.copyOf(requireNonNull(workers, "workers is null"));
        if (new LinkedHashSet<>(workers).size() != workers.size()) {
            throw new QuiverException(ErrorCode.INVALID_CONFIGURATION, "a worker is listed twice in " + workers);
        }
    }

    @Override
    public List<WorkerAddress> resolve() {
        return workers;
    }

    @Override
    public String describe() {
        return workers.stream().map(WorkerAddress::toString).collect(Collectors.joining(","));
    }
}
