package dev.quiver.engine.source.files;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The options of a file table, as written in {@code read_csv('f.csv', delim = ';')} or
 * {@code CREATE EXTERNAL TABLE ... OPTIONS (delim ';')}: names matched case-insensitively, values a
 * String, Boolean, Long, BigDecimal, a List of values ({@code ['a', 'b']}) or a Map from names to
 * values ({@code {'a': 'INTEGER'}}). Each format reads the options it knows through the typed
 * getters; {@link #checkAllRead} then rejects the rest, naming them, so a misspelt option is an
 * error rather than silently ignored. Not thread-safe: one instance per table opening.
 */
public final class FileOptions {
    public static final FileOptions NONE = new FileOptions(Map.of());

    private final Map<String, Object> values;
    private final Set<String> read = new TreeSet<>();

    /** @param values option values by name (names are compared in lower case) */
    public FileOptions(Map<String, Object> values) {
        Map<String, Object> lower = new TreeMap<>();
        values.forEach((name, value) -> {
            if (lower.put(name.toLowerCase(Locale.ROOT), value) != null) {
                throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "Option '" + name + "' is given twice");
            }
        });
        this.values = lower;
    }

    public boolean isEmpty() {
        return values.isEmpty();
    }

    /** The options as given (lower-case names), e.g. to open the same table again. */
    public Map<String, Object> values() {
        return new LinkedHashMap<>(values);
    }

    private Optional<Object> value(String name) {
        read.add(name);
        return Optional.ofNullable(values.get(name));
    }

    public boolean has(String name) {
        return values.containsKey(name);
    }

    /** A boolean: {@code true}/{@code false}, their strings, or 0/1. */
    public Optional<Boolean> bool(String name) {
        return value(name).map(value -> {
            if (value instanceof Boolean b) {
                return b;
            }
            String text = value.toString().strip().toLowerCase(Locale.ROOT);
            return switch (text) {
                case "true", "1", "on" -> true;
                case "false", "0", "off" -> false;
                default -> throw bad(name, value, "true or false");
            };
        });
    }

    /** A string (a number or boolean given for it is taken as its text). */
    public Optional<String> string(String name) {
        return value(name).map(value -> {
            if (value instanceof List<?> || value instanceof Map<?, ?>) {
                throw bad(name, value, "a string");
            }
            return value.toString();
        });
    }

    /** One character, e.g. a delimiter; {@code \t} and the string {@code \t} both mean a tab. */
    public Optional<Character> character(String name) {
        return string(name).map(text -> {
            String unescaped = text.equals("\\t") ? "\t" : text;
            if (unescaped.length() != 1) {
                throw bad(name, text, "a single character");
            }
            return unescaped.charAt(0);
        });
    }

    /** A whole number. */
    public Optional<Long> integer(String name) {
        return value(name).map(value -> {
            try {
                return value instanceof Number n ? new BigDecimal(n.toString()).longValueExact() : Long.parseLong(value.toString().strip());
            } catch (NumberFormatException | ArithmeticException e) {
                throw bad(name, value, "a whole number");
            }
        });
    }

    /** A list of strings; a single string is a list of one. */
    public Optional<List<String>> strings(String name) {
        return value(name).map(value -> {
            List<String> strings = new ArrayList<>();
            if (value instanceof List<?> list) {
                list.forEach(item -> strings.add(String.valueOf(item)));
            } else if (value instanceof Map<?, ?>) {
                throw bad(name, value, "a string or a list of strings");
            } else {
                strings.add(value.toString());
            }
            return strings;
        });
    }

    /** A map from names to strings, in the order written ({@code {'a': 'INTEGER', 'b': 'VARCHAR'}}). */
    public Optional<Map<String, String>> map(String name) {
        return value(name).map(value -> {
            if (!(value instanceof Map<?, ?> map)) {
                throw bad(name, value, "a map such as {'a': 'INTEGER'}");
            }
            Map<String, String> strings = new LinkedHashMap<>();
            map.forEach((key, item) -> strings.put(String.valueOf(key), String.valueOf(item)));
            return strings;
        });
    }

    /**
     * Fails for an option no getter asked for.
     *
     * @param where what the options were given to, for the message ({@code read_csv})
     */
    public void checkAllRead(String where) {
        Set<String> unknown = new TreeSet<>(values.keySet());
        unknown.removeAll(read);
        if (!unknown.isEmpty()) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "Unknown option" + (unknown.size() > 1 ? "s " : " ")
                    + String.join(", ", unknown.stream().map(u -> "'" + u + "'").toList()) + " for " + where
                    + "; its options are " + String.join(", ", read));
        }
    }

    private static QuiverException bad(String name, Object value, String expected) {
        return new QuiverException(ErrorCode.INVALID_ARGUMENT, "Option " + name + " = " + value + ": expected " + expected);
    }
}
