package dev.quiver.server;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.time.Duration;

/**
 * The limits of {@link Admission}.
 *
 * @param maxConcurrent queries that run at once
 * @param maxQueued queries that may wait; one more is refused at once
 * @param queueTimeout how long a query waits before it fails
 * @param queryMemory the share of the server's pool each query is granted ({@link Long#MAX_VALUE}: unlimited)
 */
public record AdmissionSettings(int maxConcurrent, int maxQueued, Duration queueTimeout, long queryMemory) {
    public AdmissionSettings {
        requireNonNull(queueTimeout, "queueTimeout is null");
        if (maxConcurrent < 1 || maxQueued < 0 || queueTimeout.isNegative() || queryMemory < 1) {
            throw new QuiverException(ErrorCode.INVALID_CONFIGURATION, "Admission needs at least one concurrent query, a queue of 0 or more,"
                    + " a timeout of 0 or more and a positive query memory: " + this);
        }
    }

    /** {@code maxConcurrent} queries, 64 waiting up to a minute, each granted an equal share of a pool of {@code poolLimit} bytes. */
    public static AdmissionSettings defaults(int maxConcurrent, long poolLimit) {
        return new AdmissionSettings(maxConcurrent, 64, Duration.ofMinutes(1), poolLimit == Long.MAX_VALUE ? Long.MAX_VALUE : poolLimit / maxConcurrent);
    }
}
