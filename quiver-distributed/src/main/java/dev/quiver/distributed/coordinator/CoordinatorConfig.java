package dev.quiver.distributed.coordinator;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * How a {@link Coordinator} behaves, independent of any one query.
 *
 * @param version the Quiver version this coordinator runs; workers of another version are refused
 *     (WORKER_VERSION_MISMATCH) and every task request carries it
 * @param finalizationTimeout the last resort of metrics finalization: how long after a query ended
 *     the coordinator waits for the final reports of its tasks before it gives up on the missing
 *     ones (counted in {@link CoordinatorMetrics#metricsFinalizationTimeouts()}; no test may rely on it)
 * @param failureGrace when the result stream fails (for example a DoGet from a worker that died),
 *     how long to wait for the control stream's verdict, which names the stage, before reporting the
 *     data stream's error instead
 */
public record CoordinatorConfig(String version, Duration finalizationTimeout, Duration failureGrace) {
    public CoordinatorConfig {
        requireNonNull(version, "version is null");
        requireNonNull(finalizationTimeout, "finalizationTimeout is null");
        requireNonNull(failureGrace, "failureGrace is null");
        if (finalizationTimeout.isNegative() || finalizationTimeout.isZero() || failureGrace.isNegative()) {
            throw new IllegalArgumentException("coordinator timeouts must be positive: " + finalizationTimeout + ", " + failureGrace);
        }
    }

    /**
     * Defaults: 60 s of last-resort finalization wait, 2 s of failure grace. (How long the workers'
     * info calls may take is a query's setting, {@code distributed.worker_info_timeout_ms}.)
     */
    public static CoordinatorConfig defaults(String version) {
        return new CoordinatorConfig(version, Duration.ofSeconds(60), Duration.ofSeconds(2));
    }

    public CoordinatorConfig withFinalizationTimeout(Duration timeout) {
        return new CoordinatorConfig(version, timeout, failureGrace);
    }
}
