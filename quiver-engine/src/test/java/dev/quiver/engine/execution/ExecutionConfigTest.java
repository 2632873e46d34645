package dev.quiver.engine.execution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.config.EngineSettings;
import dev.quiver.engine.config.Setting;
import dev.quiver.engine.config.SettingCheck;
import dev.quiver.engine.config.SettingTypes;
import dev.quiver.engine.config.Settings;
import dev.quiver.engine.config.SettingsRegistry;
import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.memory.MemoryPool;
import dev.quiver.engine.testing.TestingContext;
import java.util.List;
import org.junit.jupiter.api.Test;

/** An operator reads any setting of its session or task through its context, a new one with nothing but its declaration. */
class ExecutionConfigTest {
    private static final SettingsRegistry.Builder DECLARED = SettingsRegistry.builder();
    private static final Setting<Long> PROBE = DECLARED.add(Setting.of("test.probe", SettingTypes.LONG, 7L, SettingCheck.atLeast(0), "a setting only this test reads"));
    private static final SettingsRegistry REGISTRY = SettingsRegistry.concat(List.of(EngineSettings.REGISTRY, DECLARED.build()));

    @Test
    void anOperatorReadsADeclaredSettingThroughItsContext() {
        Settings settings = REGISTRY.defaults().with(PROBE, 42L).with(EngineSettings.BATCH_SIZE, 100);
        try (TestingContext testing = new TestingContext(MemoryPool.unlimited(), ExecutionConfig.of(settings))) {
            TaskContext context = testing.context();
            assertThat(context.setting(PROBE)).isEqualTo(42L);
            assertThat(context.batchSize()).isEqualTo(100);
            assertThat(context.config().settings()).isEqualTo(settings);
        }
        assertThat(ExecutionConfig.of(REGISTRY.defaults()).settings().get(PROBE)).isEqualTo(7L);
    }

    @Test
    void changingOneOfTheEngineSettingsKeepsTheOthers() {
        ExecutionConfig config = ExecutionConfig.of(REGISTRY.defaults().with(PROBE, 3L));
        ExecutionConfig changed = config.withBatchSize(10).withTargetPartitions(5);
        assertThat(changed.batchSize()).isEqualTo(10);
        assertThat(changed.targetPartitions()).isEqualTo(5);
        assertThat(changed.settings().get(PROBE)).isEqualTo(3L);
        assertThat(changed.withBatchSize(config.batchSize()).withTargetPartitions(config.targetPartitions())).isEqualTo(config);
        assertThat(changed).isNotEqualTo(config);
    }

    @Test
    void aSettingTheExecutionDoesNotHaveIsAnInternalError() {
        // a plain ExecutionConfig holds the engine's settings only: reading another is a bug of the runner, not of the user
        assertThatThrownBy(() -> new ExecutionConfig(1024, 2).settings().get(PROBE)).isInstanceOfSatisfying(QuiverException.class,
                e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INTERNAL_ERROR)).hasMessageContaining("test.probe");
        assertThatThrownBy(() -> ExecutionConfig.of(SettingsRegistry.of(List.of(PROBE)).defaults())).isInstanceOfSatisfying(QuiverException.class,
                e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INTERNAL_ERROR)).hasMessageContaining("batch_size");
    }
}
