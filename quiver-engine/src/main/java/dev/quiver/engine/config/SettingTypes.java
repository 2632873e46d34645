package dev.quiver.engine.config;

import static java.util.Objects.requireNonNull;

import dev.quiver.engine.error.QuiverException;
import dev.quiver.engine.memory.ByteSize;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.LongFunction;
import java.util.stream.Collectors;

/** The types of settings: booleans, integers, byte sizes, enums, text and secrets. */
public final class SettingTypes {
    /** {@code true}/{@code false} (also {@code on}/{@code off}, {@code 1}/{@code 0}), any case. */
    public static final SettingType<Boolean> BOOLEAN = new BooleanType();
    /** A 32-bit whole number. */
    public static final SettingType<Integer> INTEGER = new WholeNumber<>(Integer.class, Integer::parseInt,
            l -> l == (int) l ? Optional.of((int) l) : Optional.empty());
    /** A 64-bit whole number. */
    public static final SettingType<Long> LONG = new WholeNumber<>(Long.class, Long::parseLong, Optional::of);
    /** Bytes: a number with an optional binary unit ({@code 16MiB}, {@code 512k}, {@code 65536}). */
    public static final SettingType<Long> SIZE = new SizeType(false);
    /** Like {@link #SIZE}, or {@code unlimited} ({@link Long#MAX_VALUE}). */
    public static final SettingType<Long> SIZE_OR_UNLIMITED = new SizeType(true);

    /** Any text (surrounding spaces removed); empty is a value too. */
    public static final SettingType<String> STRING = new TextType();
    /** Text that is never shown ({@link Secret}): credentials. */
    public static final SettingType<Secret> SECRET = new SecretType();

    private static final String[] UNITS = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};

    private SettingTypes() {}

    /** One of {@code type}'s constants, written in lower case and read in any case. */
    public static <E extends Enum<E>> SettingType<E> enumOf(Class<E> type) {
        return new EnumType<>(requireNonNull(type, "type is null"));
    }

    private record TextType() implements SettingType<String> {
        @Override
        public String name() {
            return "string";
        }

        @Override
        public String expected() {
            return "text";
        }

        @Override
        public Class<String> javaType() {
            return String.class;
        }

        @Override
        public Optional<String> parse(String text) {
            return Optional.of(text.trim());
        }

        @Override
        public String format(String value) {
            return value;
        }

        @Override
        public Object toWire(String value) {
            return value;
        }

        @Override
        public Optional<String> fromWire(Object wire) {
            return wire instanceof String s ? Optional.of(s) : Optional.empty();
        }
    }

    private record SecretType() implements SettingType<Secret> {
        @Override
        public String name() {
            return "secret";
        }

        @Override
        public String expected() {
            return "text";
        }

        @Override
        public Class<Secret> javaType() {
            return Secret.class;
        }

        @Override
        public Optional<Secret> parse(String text) {
            return Optional.of(new Secret(text.trim()));
        }

        @Override
        public String format(Secret value) {
            return value.reveal();
        }

        @Override
        public String display(Secret value) {
            return value.toString();
        }

        @Override
        public Object toWire(Secret value) {
            return value.reveal();
        }

        @Override
        public Optional<Secret> fromWire(Object wire) {
            return wire instanceof String s ? Optional.of(new Secret(s)) : Optional.empty();
        }
    }

    private record BooleanType() implements SettingType<Boolean> {
        @Override
        public String name() {
            return "boolean";
        }

        @Override
        public String expected() {
            return "true or false";
        }

        @Override
        public Class<Boolean> javaType() {
            return Boolean.class;
        }

        @Override
        public Optional<Boolean> parse(String text) {
            return switch (text.trim().toLowerCase(Locale.ROOT)) {
                case "true", "on", "1" -> Optional.of(true);
                case "false", "off", "0" -> Optional.of(false);
                default -> Optional.empty();
            };
        }

        @Override
        public String format(Boolean value) {
            return value.toString();
        }

        @Override
        public Object toWire(Boolean value) {
            return value;
        }

        @Override
        public Optional<Boolean> fromWire(Object wire) {
            return wire instanceof Boolean b ? Optional.of(b) : Optional.empty();
        }
    }

    /** A whole number of {@code javaType}: {@code parser} reads text (throwing NumberFormatException), {@code narrow} a wire long. */
    private record WholeNumber<T extends Number>(Class<T> javaType, Function<String, T> parser, LongFunction<Optional<T>> narrow)
            implements SettingType<T> {
        @Override
        public String name() {
            return "integer";
        }

        @Override
        public String expected() {
            return "a whole number";
        }

        @Override
        public Optional<T> parse(String text) {
            try {
                return Optional.of(parser.apply(text.trim()));
            } catch (NumberFormatException e) {
                return Optional.empty();
            }
        }

        @Override
        public String format(T value) {
            return value.toString();
        }

        @Override
        public Object toWire(T value) {
            return value.longValue();
        }

        @Override
        public Optional<T> fromWire(Object wire) {
            return wire instanceof Long l ? narrow.apply(l) : Optional.empty();
        }
    }

    /** Sizes are formatted in the largest binary unit that divides them, so that the text reads back exactly. */
    private record SizeType(boolean unlimited) implements SettingType<Long> {
        @Override
        public String name() {
            return unlimited ? "size or unlimited" : "size";
        }

        @Override
        public String expected() {
            return unlimited ? "a size such as 512MiB or 2GiB, or unlimited" : "a size such as 16MiB or 65536";
        }

        @Override
        public Class<Long> javaType() {
            return Long.class;
        }

        @Override
        public Optional<Long> parse(String text) {
            String trimmed = text.trim();
            if (unlimited && (trimmed.equalsIgnoreCase("unlimited") || trimmed.equalsIgnoreCase("none"))) {
                return Optional.of(Long.MAX_VALUE);
            }
            try {
                return Optional.of(ByteSize.parseBytes(trimmed));
            } catch (QuiverException e) {
                return Optional.empty();
            }
        }

        @Override
        public String format(Long value) {
            if (unlimited && value == Long.MAX_VALUE) {
                return "unlimited";
            }
            long bytes = value;
            int unit = -1;
            while (bytes != 0 && bytes % 1024 == 0 && unit < UNITS.length - 1) {
                bytes /= 1024;
                unit++;
            }
            return unit < 0 ? Long.toString(bytes) : bytes + UNITS[unit];
        }

        @Override
        public Object toWire(Long value) {
            return value;
        }

        @Override
        public Optional<Long> fromWire(Object wire) {
            return wire instanceof Long l ? Optional.of(l) : Optional.empty();
        }
    }

    private record EnumType<E extends Enum<E>>(Class<E> type) implements SettingType<E> {
        @Override
        public String name() {
            return names(" | ");
        }

        @Override
        public String expected() {
            return "one of " + names(", ");
        }

        private String names(String separator) {
            return Arrays.stream(type.getEnumConstants()).map(this::format).collect(Collectors.joining(separator));
        }

        @Override
        public Class<E> javaType() {
            return type;
        }

        @Override
        public Optional<E> parse(String text) {
            String wanted = text.trim();
            return Arrays.stream(type.getEnumConstants()).filter(e -> e.name().equalsIgnoreCase(wanted)).findFirst();
        }

        @Override
        public String format(E value) {
            return value.name().toLowerCase(Locale.ROOT);
        }

        @Override
        public Object toWire(E value) {
            return format(value);
        }

        @Override
        public Optional<E> fromWire(Object wire) {
            return wire instanceof String s ? parse(s) : Optional.empty();
        }
    }
}
