package dev.quiver.distributed.protocol;

import static java.util.Objects.requireNonNull;


/** What a worker says about itself when asked: its version, cores and memory limit. */
public record WorkerInfo(WorkerAddress address, String version, int cores, long memoryLimitBytes) {
    public WorkerInfo {
        requireNonNull(address, "address is null");
        requireNonNull(version, "version is null");
    }
}
