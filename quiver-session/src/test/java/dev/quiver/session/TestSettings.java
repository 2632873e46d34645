package dev.quiver.session;

import dev.quiver.engine.config.EngineSettings;
import dev.quiver.engine.config.Settings;

/** Session settings for planning tests. */
final class TestSettings {
    private TestSettings() {}

    /** The session defaults with {@code target_partitions} set. */
    static Settings withPartitions(int targetPartitions) {
        return SessionSettings.REGISTRY.defaults().with(EngineSettings.TARGET_PARTITIONS, targetPartitions);
    }
}
