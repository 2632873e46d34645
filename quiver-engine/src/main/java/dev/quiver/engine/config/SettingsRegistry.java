package dev.quiver.engine.config;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The settings a component understands, by name (case-insensitive), with the rules between them.
 * Each module declares its settings as constants, each registered as it is declared through a
 * {@link Builder} (so that a new setting is one declaration), and one registry of them (e.g.
 * {@link EngineSettings#REGISTRY}); a session's registry is the {@link #concat} of its modules'.
 * Immutable.
 */
public final class SettingsRegistry {
    private final Map<String, Setting<?>> settings;
    private final List<SettingsRule> rules;

    private SettingsRegistry(Map<String, Setting<?>> settings, List<SettingsRule> rules) {
        this.settings = settings;
        this.rules = List.copyOf(rules);
    }

    public static SettingsRegistry of(List<Setting<?>> settings, List<SettingsRule> rules) {
        Map<String, Setting<?>> byName = new LinkedHashMap<>();
        for (Setting<?> setting : requireNonNull(settings, "settings is null")) {
            if (byName.putIfAbsent(setting.name(), setting) != null) {
                throw new IllegalArgumentException("two settings are named " + setting.name());
            }
        }
        return new SettingsRegistry(byName, requireNonNull(rules, "rules is null"));
    }

    public static SettingsRegistry of(List<Setting<?>> settings) {
        return of(settings, List.of());
    }

    /** Collects settings as their constants are declared; see {@link EngineSettings} for the pattern. */
    public static Builder builder() {
        return new Builder();
    }

    /** Every setting and rule of {@code parts}, in order; a name may appear in only one part (unless the part repeats). */
    public static SettingsRegistry concat(List<SettingsRegistry> parts) {
        // sets, not lists: a session's registry is built at every start, and record equality over
        // ~100 settings compared pairwise took a visible part of a short run's start
        Set<Setting<?>> all = new LinkedHashSet<>();
        Set<SettingsRule> rules = new LinkedHashSet<>();
        for (SettingsRegistry part : parts) {
            all.addAll(part.settings.values());
            rules.addAll(part.rules);
        }
        return of(List.copyOf(all), List.copyOf(rules));
    }

    /** Every setting, in declaration order. */
    public List<Setting<?>> settings() {
        return List.copyOf(settings.values());
    }

    public List<SettingsRule> rules() {
        return rules;
    }

    public Optional<Setting<?>> find(String name) {
        return Optional.ofNullable(settings.get(name.trim().toLowerCase(Locale.ROOT)));
    }

    /** The setting called {@code name} (any case). */
    public Setting<?> require(String name) {
        requireNonNull(name, "name is null");
        return find(name).orElseThrow(() -> new QuiverException(ErrorCode.INVALID_CONFIGURATION, "Unknown setting '" + name
                + "'; valid settings are " + settings.keySet().stream().collect(Collectors.joining(", ")) + " (SHOW SETTINGS lists them)"));
    }

    /** Whether {@code setting} is this registry's (the very constant, not only one of the same name). */
    public boolean contains(Setting<?> setting) {
        return settings.get(setting.name()) == setting;
    }

    /** Every setting at its default. */
    public Settings defaults() {
        return Settings.defaults(this);
    }

    @Override
    public String toString() {
        return "SettingsRegistry" + settings.keySet();
    }

    /**
     * Collects a module's settings while its class initializes: {@code X = declared.add(Setting.of(...))}
     * for each, then {@code REGISTRY = declared.build(rules)}. Sealed by {@link #build}: a later
     * {@link #add} fails, so the registry is the declarations and nothing else.
     */
    public static final class Builder {
        private final List<Setting<?>> settings = new ArrayList<>();
        private boolean built;

        private Builder() {}

        /** Registers {@code setting} and returns it, for a constant's initializer. */
        public synchronized <T> Setting<T> add(Setting<T> setting) {
            if (built) {
                throw new IllegalStateException("the registry is already built; declare settings before it");
            }
            settings.add(requireNonNull(setting, "setting is null"));
            return setting;
        }

        public synchronized SettingsRegistry build(List<SettingsRule> rules) {
            built = true;
            return of(settings, rules);
        }

        public SettingsRegistry build() {
            return build(List.of());
        }
    }
}
