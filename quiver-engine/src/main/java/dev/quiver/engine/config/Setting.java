package dev.quiver.engine.config;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.util.Locale;

/**
 * One setting: its name, type, default, what values it allows and what it does, in one line. Every
 * way a value comes in ({@code SET}, the CLI's {@code --set}, {@code QuerySession.Builder.set}, a
 * task request) goes through {@link #parse} or {@link #check}, so a bad value fails the same way
 * everywhere: {@link ErrorCode#INVALID_CONFIGURATION} naming the setting, the value and what is
 * allowed. Settings are declared as constants of the module that reads them and collected in a
 * {@link SettingsRegistry}; a {@link Settings} value holds what a session chose.
 *
 * @param name the dotted name, lower case ({@code distributed.compression})
 * @param type how values are read, shown and sent
 * @param defaultValue the value when none is set
 * @param defaultDoc how docs show the default when the value depends on the machine (else empty)
 * @param check what values of the type are allowed
 * @param doc what the setting does, in one line
 * @param <T> the Java type of the value
 */
public record Setting<T>(String name, SettingType<T> type, T defaultValue, String defaultDoc, SettingCheck<T> check, String doc) {
    public Setting {
        requireNonNull(name, "name is null");
        requireNonNull(type, "type is null");
        requireNonNull(defaultValue, "defaultValue is null");
        requireNonNull(defaultDoc, "defaultDoc is null");
        requireNonNull(check, "check is null");
        requireNonNull(doc, "doc is null");
        if (!name.equals(name.toLowerCase(Locale.ROOT)) || name.isBlank()) {
            throw new IllegalArgumentException("setting names are lower case: '" + name + "'");
        }
        if (!type.javaType().isInstance(defaultValue) || !check.allows(defaultValue)) {
            throw new IllegalArgumentException("the default of " + name + " is not one of its values: " + defaultValue);
        }
    }

    /** A setting whose default docs/configuration.md shows as it is. */
    public static <T> Setting<T> of(String name, SettingType<T> type, T defaultValue, SettingCheck<T> check, String doc) {
        return new Setting<>(name, type, defaultValue, "", check, doc);
    }

    /** This setting with its default described as {@code text} (e.g. "the number of cores"). */
    public Setting<T> withDefaultDoc(String text) {
        return new Setting<>(name, type, defaultValue, text, check, doc);
    }

    /** The value {@code text} denotes. */
    public T parse(String text) {
        requireNonNull(text, "text is null");
        T value = type.parse(text).orElseThrow(() -> invalid(text, ""));
        if (!check.allows(value)) {
            throw invalid(text, "");
        }
        return value;
    }

    /** {@code value} if this setting allows it. */
    public T check(Object value) {
        requireNonNull(value, "value is null");
        if (!type.javaType().isInstance(value)) {
            throw invalid(value.toString(), " (a " + value.getClass().getSimpleName() + ")");
        }
        T typed = type.javaType().cast(value);
        if (!check.allows(typed)) {
            throw invalid(type.format(typed), "");
        }
        return typed;
    }

    /** The value of a task request's {@code wire} value (see {@link SettingType#toWire}). */
    public T fromWire(Object wire) {
        requireNonNull(wire, "wire is null");
        return check(type.fromWire(wire).orElseThrow(() -> invalid(wire.toString(), " (JSON " + (wire instanceof String ? "string" : wire instanceof Boolean ? "boolean" : "number") + ")")));
    }

    /** What this setting allows, in words: e.g. {@code a whole number, at least 1}. */
    public String allowed() {
        return check.allowed().isEmpty() ? type.expected() : type.expected() + ", " + check.allowed();
    }

    /** The default as docs show it. */
    public String defaultText() {
        return defaultDoc.isEmpty() ? type.display(defaultValue) : defaultDoc;
    }

    public String format(T value) {
        return type.format(value);
    }

    /** The value as users see it ({@link SettingType#display}: a secret masked). */
    public String display(T value) {
        return type.display(value);
    }

    /** The one error of a bad value: the setting, the value as given ({@code note} says its kind where that is the fault) and what is allowed. */
    private QuiverException invalid(String shown, String note) {
        return new QuiverException(ErrorCode.INVALID_CONFIGURATION,
                "Invalid value '" + shown + "'" + note + " for setting " + name + ": expected " + allowed());
    }

    @Override
    public String toString() {
        return name;
    }
}
