package dev.quiver.engine.config;

import static java.util.Objects.requireNonNull;

import java.util.function.Predicate;

/**
 * What a {@link Setting} allows beyond its type, e.g. {@code at least 1}.
 *
 * @param test whether a value is allowed
 * @param allowed the rule in words, shown in errors and in docs/configuration.md (empty: any value)
 */
public record SettingCheck<T>(Predicate<? super T> test, String allowed) {
    public SettingCheck {
        requireNonNull(test, "test is null");
        requireNonNull(allowed, "allowed is null");
    }

    /** Every value of the type. */
    public static <T> SettingCheck<T> any() {
        return new SettingCheck<>(value -> true, "");
    }

    /** A number of at least {@code min}. */
    public static <T extends Number> SettingCheck<T> atLeast(long min) {
        return new SettingCheck<>(value -> value.longValue() >= min, "at least " + min);
    }

    public boolean allows(T value) {
        return test.test(value);
    }
}
