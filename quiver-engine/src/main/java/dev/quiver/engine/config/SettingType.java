package dev.quiver.engine.config;

import java.util.Optional;

/**
 * The type of a {@link Setting}'s value: how it is read from text ({@code SET name = value},
 * {@code --set name=value}), shown ({@code SHOW SETTINGS}, {@code current_setting}), and carried
 * typed in a task request (a JSON boolean, number or string, never a string to parse again).
 * The built-in types are in {@link SettingTypes}.
 *
 * @param <T> the Java type of the value
 */
public interface SettingType<T> {
    /** The short name shown in {@code SHOW SETTINGS} and docs/configuration.md, e.g. {@code integer}. */
    String name();

    /** What a valid text looks like, for errors: e.g. {@code an integer} or {@code one of lz4, zstd, none}. */
    String expected();

    /** The class every value is an instance of. */
    Class<T> javaType();

    /** The value {@code text} denotes, or empty when it denotes none of this type. */
    Optional<T> parse(String text);

    /** The value as text that {@link #parse} reads back to the same value. */
    String format(T value);

    /** The value as {@code SHOW SETTINGS} and {@code current_setting} show it: {@link #format}, except that a secret is masked. */
    default String display(T value) {
        return format(value);
    }

    /** The value as it travels in a task request: a {@link Boolean}, {@link Long} or {@link String}. */
    Object toWire(T value);

    /** The value of what {@link #toWire} wrote, or empty when {@code wire} is not of that kind. */
    Optional<T> fromWire(Object wire);
}
