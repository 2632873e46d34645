package dev.quiver.distributed.protocol;

import dev.quiver.distributed.config.DistributedSettings;
import dev.quiver.engine.config.Settings;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.time.Duration;

/**
 * How often both ends of a control stream send heartbeats, and how long a silent peer is
 * tolerated. gRPC keepalive cannot notice a hung peer in under about 10 s; these can.
 */
public record HeartbeatSettings(Duration interval, Duration timeout) {
    public static final HeartbeatSettings DEFAULT = new HeartbeatSettings(Duration.ofSeconds(1), Duration.ofSeconds(5));

    public HeartbeatSettings {
        if (interval.isNegative() || interval.isZero() || timeout.compareTo(interval) <= 0) {
            throw new QuiverException(ErrorCode.INVALID_CONFIGURATION,
                    "heartbeats need a positive interval below the timeout: interval " + interval.toMillis() + " ms, timeout " + timeout.toMillis() + " ms");
        }
    }

    /** The heartbeat settings of a task's settings ({@code distributed.heartbeat_interval_ms}, {@code distributed.heartbeat_timeout_ms}). */
    public static HeartbeatSettings fromSettings(Settings settings) {
        return new HeartbeatSettings(Duration.ofMillis(settings.get(DistributedSettings.HEARTBEAT_INTERVAL_MS)),
                Duration.ofMillis(settings.get(DistributedSettings.HEARTBEAT_TIMEOUT_MS)));
    }
}
