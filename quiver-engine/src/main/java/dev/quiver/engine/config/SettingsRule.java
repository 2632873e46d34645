package dev.quiver.engine.config;

import static java.util.Objects.requireNonNull;

import java.util.Optional;
import java.util.function.Function;

/**
 * A requirement that ties settings together (e.g. a heartbeat interval below its timeout),
 * checked whenever a {@link Settings} value changes.
 *
 * @param description the requirement in words, for docs/configuration.md
 * @param violation the message naming the settings and their values when the requirement does not hold
 */
public record SettingsRule(String description, Function<Settings, Optional<String>> violation) {
    public SettingsRule {
        requireNonNull(description, "description is null");
        requireNonNull(violation, "violation is null");
    }

    /** {@code lower} must be strictly below {@code upper}. */
    public static <T extends Comparable<T>> SettingsRule below(Setting<T> lower, Setting<T> upper) {
        return new SettingsRule(lower.name() + " must be below " + upper.name(), settings -> {
            T low = settings.get(lower);
            T high = settings.get(upper);
            return low.compareTo(high) < 0 ? Optional.empty()
                    : Optional.of(lower.name() + " (" + lower.format(low) + ") must be below " + upper.name() + " (" + upper.format(high) + ")");
        });
    }
}
