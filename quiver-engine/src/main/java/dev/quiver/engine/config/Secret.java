package dev.quiver.engine.config;

import static java.util.Objects.requireNonNull;

/**
 * The value of a secret setting ({@link SettingTypes#SECRET}, e.g. {@code s3.secret_access_key}):
 * text that {@code SHOW SETTINGS}, {@code current_setting}, EXPLAIN and logs never show. Only
 * {@link #reveal()} gives the text, to the code that uses it.
 *
 * @param value the text; empty when not set
 */
public record Secret(String value) {
    public static final Secret NONE = new Secret("");
    /** What a secret that is set shows as. */
    public static final String MASK = "********";

    public Secret {
        requireNonNull(value, "value is null");
    }

    public boolean isSet() {
        return !value.isEmpty();
    }

    public String reveal() {
        return value;
    }

    @Override
    public String toString() {
        return isSet() ? MASK : "";
    }
}
