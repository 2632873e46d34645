package dev.quiver.engine.config;

/** The settings the engine's operators read: {@code batch_size} and {@code target_partitions}. */
public final class EngineSettings {
    private static final SettingsRegistry.Builder DECLARED = SettingsRegistry.builder();

    public static final Setting<Integer> TARGET_PARTITIONS = DECLARED.add(Setting.of("target_partitions", SettingTypes.INTEGER,
            Runtime.getRuntime().availableProcessors(), SettingCheck.atLeast(1),
            "partitions each stage of a plan runs with (per task, when distributed): the parallelism of a query")
            .withDefaultDoc("the number of cores"));
    public static final Setting<Integer> BATCH_SIZE = DECLARED.add(Setting.of("batch_size", SettingTypes.INTEGER, 8192,
            SettingCheck.atLeast(1), "rows per Arrow batch that operators aim for"));

    /** Every setting declared above. */
    public static final SettingsRegistry REGISTRY = DECLARED.build();

    private EngineSettings() {}
}
