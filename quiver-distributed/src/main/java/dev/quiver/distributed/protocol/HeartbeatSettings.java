package dev.quiver.distributed.protocol;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.time.Duration;
import java.util.Map;

/**
 * How often both ends of a control stream send heartbeats, and how long a silent peer is
 * tolerated. gRPC keepalive cannot notice a hung peer in under about 10 s; these can.
 */
public record HeartbeatSettings(Duration interval, Duration timeout) {
    public static final String INTERVAL_SETTING = "distributed.heartbeat_interval_ms";
    public static final String TIMEOUT_SETTING = "distributed.heartbeat_timeout_ms";
    public static final HeartbeatSettings DEFAULT = new HeartbeatSettings(Duration.ofSeconds(1), Duration.ofSeconds(5));

    public HeartbeatSettings {
        if (interval.isNegative() || interval.isZero() || timeout.compareTo(interval) <= 0) {
            throw new QuiverException(ErrorCode.INVALID_CONFIGURATION,
                    "heartbeats need a positive interval below the timeout: interval " + interval.toMillis() + " ms, timeout " + timeout.toMillis() + " ms");
        }
    }

    /** The heartbeat settings of a task's settings, defaults for what they do not say. */
    public static HeartbeatSettings fromSettings(Map<String, String> settings) {
        return new HeartbeatSettings(millis(settings, INTERVAL_SETTING, DEFAULT.interval), millis(settings, TIMEOUT_SETTING, DEFAULT.timeout));
    }

    private static Duration millis(Map<String, String> settings, String key, Duration fallback) {
        String value = settings.get(key);
        if (value == null) {
            return fallback;
        }
        try {
            return Duration.ofMillis(Long.parseLong(value.trim()));
        } catch (NumberFormatException e) {
            throw new QuiverException(ErrorCode.INVALID_CONFIGURATION, key + " must be a number of milliseconds, not '" + value + "'");
        }
    }
}
