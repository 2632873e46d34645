package dev.quiver.engine.config;

import dev.quiver.engine.compression.IpcCompression;

/** The settings of the engine: batch size, partitions, division by zero, and spilling. */
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
    public static final Setting<Boolean> SPILL_ENABLED = DECLARED.add(Setting.of("spill_enabled", SettingTypes.BOOLEAN, true,
            SettingCheck.any(), "whether an operator that can spill (docs/spilling.md lists them) writes to disk when the memory pool"
                    + " refuses it more, instead of failing with EXCEEDED_MEMORY_LIMIT"));
    public static final Setting<String> SPILL_DIRECTORY = DECLARED.add(Setting.of("spill_directory", SettingTypes.STRING, "",
            SettingCheck.any(), "directory spill files are written to, in a subdirectory per query (per task on a worker) deleted when it ends;"
                    + " empty means the temporary directory of the process running the operator (java.io.tmpdir)")
            .withDefaultDoc("empty: java.io.tmpdir"));
    public static final Setting<IpcCompression> SPILL_COMPRESSION = DECLARED.add(Setting.of("spill_compression",
            SettingTypes.enumOf(IpcCompression.class), IpcCompression.LZ4, SettingCheck.any(), "codec of the Arrow IPC spill files"));

    /** Every setting declared above. */
    public static final SettingsRegistry REGISTRY = DECLARED.build();

    private EngineSettings() {}
}
