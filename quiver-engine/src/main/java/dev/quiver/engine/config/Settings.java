package dev.quiver.engine.config;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The values of every setting of one {@link SettingsRegistry}: what a session chose (DESIGN §8:
 * one immutable value per session), what a task request carries, what a stage-event handler reads.
 * Read a value typed with {@link #get}; every {@code with...} returns a new value, checked against
 * each setting's allowed values and the registry's {@link SettingsRule}s.
 */
public final class Settings {
    private final SettingsRegistry registry;
    /** The values that differ from the defaults, by setting name. */
    private final Map<String, Object> values;

    private Settings(SettingsRegistry registry, Map<String, Object> values) {
        this.registry = registry;
        this.values = Map.copyOf(values);
    }

    /** Every setting of {@code registry} at its default. */
    public static Settings defaults(SettingsRegistry registry) {
        return new Settings(requireNonNull(registry, "registry is null"), Map.of());
    }

    /**
     * The settings of a task request: {@code wire} holds a value for any of {@code registry}'s
     * settings as {@link SettingType#toWire} wrote it; a name the registry does not know, or a value
     * of the wrong kind, is {@link ErrorCode#INVALID_CONFIGURATION}.
     */
    public static Settings fromWire(SettingsRegistry registry, Map<String, Object> wire) {
        Map<String, Object> values = new LinkedHashMap<>();
        wire.forEach((name, value) -> values.put(registry.require(name).name(), registry.require(name).fromWire(value)));
        return withValues(defaults(registry), values);
    }

    public SettingsRegistry registry() {
        return registry;
    }

    /** The value of {@code setting}, which must be one of this registry's. */
    public <T> T get(Setting<T> setting) {
        requireNonNull(setting, "setting is null");
        if (!registry.contains(setting)) {
            throw new QuiverException(ErrorCode.INTERNAL_ERROR, "setting " + setting.name() + " is not one of " + registry);
        }
        Object value = values.get(setting.name());
        return value == null ? setting.defaultValue() : setting.type().javaType().cast(value);
    }

    /** The value of the setting called {@code name}, as {@code SET} would write it. */
    public String format(String name) {
        return format(registry.require(name));
    }

    public <T> String format(Setting<T> setting) {
        return setting.format(get(setting));
    }

    /** The value of the setting called {@code name} as users see it: a secret masked ({@link SettingType#display}). */
    public String display(String name) {
        return display(registry.require(name));
    }

    public <T> String display(Setting<T> setting) {
        return setting.display(get(setting));
    }

    /** Whether {@code setting} was given a value other than its default. */
    public boolean isSet(Setting<?> setting) {
        return registry.contains(setting) && values.containsKey(setting.name());
    }

    /** These settings with {@code name} (any case) read from {@code text}, as {@code SET name = text} does. */
    public Settings with(String name, String text) {
        Setting<?> setting = registry.require(name);
        return withValues(this, Map.of(setting.name(), setting.parse(text)));
    }

    /** These settings with each of {@code texts} (name to text) set; the rules are checked once, after all of them. */
    public Settings withAll(Map<String, String> texts) {
        Map<String, Object> changed = new LinkedHashMap<>();
        texts.forEach((name, text) -> {
            Setting<?> setting = registry.require(name);
            changed.put(setting.name(), setting.parse(text));
        });
        return withValues(this, changed);
    }

    /** These settings with {@code setting} set to {@code value}. */
    public <T> Settings with(Setting<T> setting, T value) {
        if (!registry.contains(setting)) {
            throw new QuiverException(ErrorCode.INVALID_CONFIGURATION, "Unknown setting '" + setting.name() + "' here; valid settings are "
                    + registry.settings());
        }
        return withValues(this, Map.of(setting.name(), setting.check(value)));
    }

    /** The values of {@code subset}'s settings (each must be one of this registry's): e.g. what travels to workers. */
    public Settings restrictTo(SettingsRegistry subset) {
        Map<String, Object> kept = new LinkedHashMap<>();
        for (Setting<?> setting : subset.settings()) {
            if (!registry.contains(setting)) {
                throw new QuiverException(ErrorCode.INTERNAL_ERROR, "setting " + setting.name() + " is not one of " + registry);
            }
            Optional.ofNullable(values.get(setting.name())).ifPresent(value -> kept.put(setting.name(), value));
        }
        return new Settings(subset, kept);
    }

    /** Every setting's value as a task request carries it, by name (defaults included, so both ends agree whatever their defaults). */
    public Map<String, Object> toWire() {
        Map<String, Object> wire = new LinkedHashMap<>();
        registry.settings().forEach(setting -> wire.put(setting.name(), wireValue(setting)));
        return wire;
    }

    private <T> Object wireValue(Setting<T> setting) {
        return setting.type().toWire(get(setting));
    }

    private static Settings withValues(Settings base, Map<String, Object> changed) {
        Map<String, Object> values = new LinkedHashMap<>(base.values);
        changed.forEach((name, value) -> {
            if (value.equals(base.registry.require(name).defaultValue())) {
                values.remove(name);
            } else {
                values.put(name, value);
            }
        });
        Settings next = new Settings(base.registry, values);
        for (SettingsRule rule : base.registry.rules()) {
            rule.violation().apply(next).ifPresent(problem -> {
                throw new QuiverException(ErrorCode.INVALID_CONFIGURATION, "Invalid settings: " + problem);
            });
        }
        return next;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Settings that && registry == that.registry && values.equals(that.values);
    }

    @Override
    public int hashCode() {
        return values.hashCode();
    }

    @Override
    public String toString() {
        return "Settings" + values;
    }
}
