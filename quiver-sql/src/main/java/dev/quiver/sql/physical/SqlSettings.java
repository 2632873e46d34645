package dev.quiver.sql.physical;

import dev.quiver.engine.config.Setting;
import dev.quiver.engine.config.SettingCheck;
import dev.quiver.engine.config.SettingTypes;
import dev.quiver.engine.config.SettingsRegistry;

/** The settings the SQL layer's planners read. */
public final class SqlSettings {
    private static final SettingsRegistry.Builder DECLARED = SettingsRegistry.builder();

    public static final Setting<Long> HASH_JOIN_COLLECT_LEFT_MAX_ROWS = DECLARED.add(Setting.of("hash_join_collect_left_max_rows", SettingTypes.LONG,
            100_000L, SettingCheck.atLeast(0),
            "a hash join whose smaller input is estimated at no more rows than this builds it once and shares it (collect-left); "
                    + "larger joins repartition both inputs by the join keys"));

    public static final SettingsRegistry REGISTRY = DECLARED.build();

    private SqlSettings() {}
}
