package dev.quiver.engine.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Settings values: typed reads, text and wire forms that read back, checks and rules. */
class SettingsTest {
    enum Mode {
        FAST, SAFE
    }

    private static final SettingsRegistry.Builder DECLARED = SettingsRegistry.builder();
    private static final Setting<Long> BUDGET = DECLARED.add(Setting.of("test.budget", SettingTypes.SIZE, 16L << 20, SettingCheck.atLeast(1), "a budget"));
    private static final Setting<Long> LOW = DECLARED.add(Setting.of("test.low", SettingTypes.LONG, 1L, SettingCheck.atLeast(0), "below high"));
    private static final Setting<Long> HIGH = DECLARED.add(Setting.of("test.high", SettingTypes.LONG, 5L, SettingCheck.atLeast(0), "above low"));
    private static final Setting<Mode> MODE = DECLARED.add(Setting.of("test.mode", SettingTypes.enumOf(Mode.class), Mode.FAST, SettingCheck.any(), "a mode"));
    private static final Setting<Boolean> FLAG = DECLARED.add(Setting.of("test.flag", SettingTypes.BOOLEAN, true, SettingCheck.any(), "a flag"));
    private static final SettingsRegistry REGISTRY = DECLARED.build(List.of(SettingsRule.below(LOW, HIGH)));

    @Test
    void sizesAreShownInTheLargestExactUnitAndReadBack() {
        for (long bytes : new long[] {1, 1000, 1024, 65536, 3L << 20, (1L << 30) + 1024, 5L << 40}) {
            String text = SettingTypes.SIZE.format(bytes);
            assertThat(SettingTypes.SIZE.parse(text)).as(text).contains(bytes);
        }
        assertThat(SettingTypes.SIZE.format(16L << 20)).isEqualTo("16MiB");
        assertThat(SettingTypes.SIZE.format((1L << 30) + 1024)).isEqualTo("1048577KiB");
        assertThat(SettingTypes.SIZE_OR_UNLIMITED.format(Long.MAX_VALUE)).isEqualTo("unlimited");
        assertThat(SettingTypes.SIZE_OR_UNLIMITED.parse("Unlimited")).contains(Long.MAX_VALUE);
        assertThat(SettingTypes.SIZE.parse("unlimited")).isEmpty();
        assertThat(SettingTypes.SIZE.parse("1.5GiB")).contains(3L << 29);
    }

    @Test
    void valuesAreReadTypedAndChangesMakeNewValues() {
        Settings defaults = REGISTRY.defaults();
        Settings changed = defaults.with("TEST.BUDGET", "4MiB").with("test.mode", "safe").with(FLAG, false);
        assertThat(changed.get(BUDGET)).isEqualTo(4L << 20);
        assertThat(changed.get(MODE)).isEqualTo(Mode.SAFE);
        assertThat(changed.get(FLAG)).isFalse();
        assertThat(changed.format("test.mode")).isEqualTo("safe");
        assertThat(defaults.get(BUDGET)).isEqualTo(16L << 20);
        assertThat(changed.with(FLAG, true).with(MODE, Mode.FAST).with(BUDGET, 16L << 20)).isEqualTo(defaults);
        assertThat(changed.isSet(MODE)).isTrue();
        assertThat(defaults.isSet(MODE)).isFalse();
    }

    @Test
    void badValuesNameTheSettingTheValueAndWhatIsAllowed() {
        Settings defaults = REGISTRY.defaults();
        assertInvalid(() -> defaults.with("test.budget", "0"), "Invalid value '0' for setting test.budget: expected a size such as 16MiB or 65536, at least 1");
        assertInvalid(() -> defaults.with("test.mode", "slow"), "Invalid value 'slow' for setting test.mode: expected one of fast, safe");
        assertInvalid(() -> defaults.with("test.flag", "perhaps"), "Invalid value 'perhaps' for setting test.flag: expected true or false");
        assertInvalid(() -> defaults.with(BUDGET, -5L), "Invalid value '-5' for setting test.budget");
        assertInvalid(() -> defaults.with("test.nothing", "1"), "Unknown setting 'test.nothing'; valid settings are test.budget, test.low, test.high");
        assertInvalid(() -> defaults.with("test.low", "9"), "test.low (9) must be below test.high (5)");
        // changed together, the rule holds at the end
        assertThat(defaults.withAll(Map.of("test.low", "9", "test.high", "10")).get(LOW)).isEqualTo(9L);
    }

    @Test
    void theWireFormReadsBackAndIsCheckedLikeText() {
        Settings changed = REGISTRY.defaults().with(MODE, Mode.SAFE).with(BUDGET, 1L << 20);
        Map<String, Object> wire = changed.toWire();
        assertThat(wire).containsEntry("test.mode", "safe").containsEntry("test.budget", 1L << 20).containsEntry("test.flag", true);
        assertThat(Settings.fromWire(REGISTRY, wire)).isEqualTo(changed);
        assertInvalid(() -> Settings.fromWire(REGISTRY, Map.of("test.budget", "1MiB")), "test.budget");
        assertInvalid(() -> Settings.fromWire(REGISTRY, Map.of("test.flag", 1L)), "test.flag");
        assertInvalid(() -> Settings.fromWire(REGISTRY, Map.of("test.low", 7L)), "must be below");
    }

    @Test
    void aSubsetKeepsItsValuesAndRefusesOthers() {
        SettingsRegistry part = SettingsRegistry.of(List.of(MODE));
        Settings restricted = REGISTRY.defaults().with(MODE, Mode.SAFE).with(FLAG, false).restrictTo(part);
        assertThat(restricted.get(MODE)).isEqualTo(Mode.SAFE);
        assertThatThrownBy(() -> restricted.get(FLAG)).isInstanceOfSatisfying(QuiverException.class,
                e -> assertThat(e.errorCode()).isEqualTo(ErrorCode.INTERNAL_ERROR));
    }

    @Test
    void aBuiltRegistryTakesNoMoreDeclarations() {
        SettingsRegistry.Builder builder = SettingsRegistry.builder();
        builder.add(Setting.of("x", SettingTypes.INTEGER, 1, SettingCheck.any(), "x"));
        builder.build();
        assertThatThrownBy(() -> builder.add(Setting.of("y", SettingTypes.INTEGER, 1, SettingCheck.any(), "y"))).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> SettingsRegistry.of(List.of(FLAG, Setting.of("test.flag", SettingTypes.BOOLEAN, false, SettingCheck.any(), "again"))))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Setting.of("z", SettingTypes.INTEGER, 0, SettingCheck.atLeast(1), "bad default")).isInstanceOf(IllegalArgumentException.class);
    }

    private static void assertInvalid(org.assertj.core.api.ThrowableAssert.ThrowingCallable call, String message) {
        assertThatThrownBy(call).isInstanceOfSatisfying(QuiverException.class, e -> {
            assertThat(e.errorCode()).isEqualTo(ErrorCode.INVALID_CONFIGURATION);
            assertThat(e.getMessage()).contains(message);
        });
    }
}
