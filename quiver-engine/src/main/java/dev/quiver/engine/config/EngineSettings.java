package dev.quiver.engine.config;

/** The settings of the engine: {@code batch_size}, {@code target_partitions} and {@code division_by_zero}. */
public final class EngineSettings {
    private static final SettingsRegistry.Builder DECLARED = SettingsRegistry.builder();

    public static final Setting<Integer> TARGET_PARTITIONS = DECLARED.add(Setting.of("target_partitions", SettingTypes.INTEGER,
            Runtime.getRuntime().availableProcessors(), SettingCheck.atLeast(1),
            "partitions each stage of a plan runs with (per task, when distributed): the parallelism of a query")
            .withDefaultDoc("the number of cores"));
    public static final Setting<Integer> BATCH_SIZE = DECLARED.add(Setting.of("batch_size", SettingTypes.INTEGER, 8192,
            SettingCheck.atLeast(1), "rows per Arrow batch that operators aim for"));
    public static final Setting<DivisionByZero> DIVISION_BY_ZERO = DECLARED.add(Setting.of("division_by_zero",
            SettingTypes.enumOf(DivisionByZero.class), DivisionByZero.ERROR, SettingCheck.any(),
            "what x / 0, x % 0, mod(x, 0) and divide(x, 0) give: error (the query fails with DIVISION_BY_ZERO, as in PostgreSQL) or null"));

    /** Every setting declared above. */
    public static final SettingsRegistry REGISTRY = DECLARED.build();

    private EngineSettings() {}
}
