package dev.quiver.session;

import dev.quiver.distributed.config.DistributedSettings;
import dev.quiver.engine.config.EngineSettings;
import dev.quiver.engine.config.Setting;
import dev.quiver.engine.config.SettingCheck;
import dev.quiver.engine.config.SettingTypes;
import dev.quiver.engine.config.SettingsRegistry;
import dev.quiver.engine.source.storage.StorageSettings;
import dev.quiver.sql.physical.SqlSettings;
import java.util.List;

/**
 * The settings only a {@link QuerySession} reads, and {@link #REGISTRY}: every setting a session
 * has, the engine's ({@link EngineSettings}), the SQL layer's ({@link SqlSettings}), the
 * {@code distributed.*} ones ({@link DistributedSettings}) and these. {@code SET name = value}, the
 * CLI's {@code --set}, {@link QuerySession.Builder#set}, {@code SHOW SETTINGS} and
 * {@code current_setting('name')} all go through it; docs/configuration.md is generated from it.
 */
public final class SessionSettings {
    private static final SettingsRegistry.Builder DECLARED = SettingsRegistry.builder();

    /** How EXPLAIN shows a plan: indented text, or Graphviz DOT. */
    public enum ExplainFormat {
        TEXT, DOT
    }

    public static final Setting<Long> MEMORY_LIMIT = DECLARED.add(Setting.of("memory_limit", SettingTypes.SIZE_OR_UNLIMITED, Long.MAX_VALUE,
            SettingCheck.atLeast(1), "the session's memory pool: what hash tables, join build sides, sort buffers and accumulators may hold together. "
                    + "An operator that needs more spills to disk if it can (spill_enabled) and otherwise fails the query with `EXCEEDED_MEMORY_LIMIT` naming it; a partial aggregate never fails, it emits early")
            .withDefaultDoc("unlimited in Java; 3GiB in the CLI"));
    public static final Setting<ExplainFormat> EXPLAIN_FORMAT = DECLARED.add(Setting.of("explain_format", SettingTypes.enumOf(ExplainFormat.class),
            ExplainFormat.TEXT, SettingCheck.any(), "how `EXPLAIN` shows a plan (single-node or distributed) when the statement names no format (`EXPLAIN (FORMAT DOT) ...`): indented text or Graphviz DOT"));

    /** The settings declared above. */
    public static final SettingsRegistry SESSION = DECLARED.build();

    /** Every setting of a session, in the order docs/configuration.md and {@code SHOW SETTINGS} list them. */
    public static final SettingsRegistry REGISTRY = SettingsRegistry.concat(List.of(EngineSettings.REGISTRY, SESSION, SqlSettings.REGISTRY,
            StorageSettings.REGISTRY, DistributedSettings.REGISTRY));

    private SessionSettings() {}
}
