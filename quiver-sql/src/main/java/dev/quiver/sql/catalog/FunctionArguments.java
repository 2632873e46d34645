package dev.quiver.sql.catalog;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The arguments of a table function call in DuckDB's syntax, e.g. {@code 'f.csv', delim = ';',
 * header = true, columns = {'a': 'INTEGER'}, nullstr = ['NA', '']}: positional arguments, then
 * named ones ({@code name = value}, {@code name := value} or {@code name => value}); values are
 * strings ({@code ''} for a quote), numbers, {@code true}/{@code false}/{@code null}, lists in
 * brackets and maps in braces (keys quoted or bare). As Java values: String, BigDecimal or Long,
 * Boolean, null, List, LinkedHashMap.
 */
public final class FunctionArguments {
    /** One argument; {@code name} is null for a positional one. */
    record Argument(String name, Object value) {}

    private final String function;
    private final String text;
    private int position;

    private FunctionArguments(String function, String text) {
        this.function = function;
        this.text = text;
    }

    /**
     * A list of options as {@code CREATE EXTERNAL TABLE ... OPTIONS (...)} takes them: entries
     * separated by commas, each a name (bare or quoted) and a value, with or without {@code =}
     * between: {@code delim ';'}, {@code 'header' 'true'}, {@code nullstr = ['NA', '']}.
     *
     * @param where what the options are for, for messages
     */
    public static Map<String, Object> options(String where, String text) {
        FunctionArguments parser = new FunctionArguments(where, text);
        Map<String, Object> options = new LinkedHashMap<>();
        parser.skipBlanks();
        while (!parser.atEnd()) {
            String name = parser.peek() == '\'' ? parser.string() : parser.peek() == '"' ? parser.quotedName() : parser.word();
            parser.skipBlanks();
            if (!parser.consume(":=") && !parser.consume("=>")) {
                parser.consume("=");
            }
            if (options.put(name.toLowerCase(Locale.ROOT), parser.value()) != null) {
                throw parser.error("the option " + name + " is given twice");
            }
            parser.skipBlanks();
            if (!parser.atEnd()) {
                parser.expect(',');
                parser.skipBlanks();
            }
        }
        return options;
    }

    static List<Argument> parse(String function, String text) {
        FunctionArguments parser = new FunctionArguments(function, text);
        List<Argument> arguments = new ArrayList<>();
        parser.skipBlanks();
        if (parser.atEnd()) {
            return arguments;
        }
        while (true) {
            arguments.add(parser.argument());
            parser.skipBlanks();
            if (parser.atEnd()) {
                return arguments;
            }
            parser.expect(',');
        }
    }

    private Argument argument() {
        skipBlanks();
        int start = position;
        if (Character.isLetter(peek()) || peek() == '_') {
            String word = word();
            skipBlanks();
            if (consume(":=") || consume("=>") || consume("=")) {
                return new Argument(word, value());
            }
            position = start;
        }
        return new Argument(null, value());
    }

    private Object value() {
        skipBlanks();
        char c = peek();
        if (c == '\'') {
            return string();
        }
        if (c == '[') {
            position++;
            List<Object> list = new ArrayList<>();
            skipBlanks();
            if (consume("]")) {
                return list;
            }
            do {
                list.add(value());
                skipBlanks();
            } while (consume(","));
            expect(']');
            return list;
        }
        if (c == '{') {
            position++;
            Map<String, Object> map = new LinkedHashMap<>();
            skipBlanks();
            if (consume("}")) {
                return map;
            }
            do {
                skipBlanks();
                String key = peek() == '\'' ? string() : peek() == '"' ? quotedName() : word();
                skipBlanks();
                expect(':');
                if (map.put(key, value()) != null) {
                    throw error("the key '" + key + "' appears twice");
                }
                skipBlanks();
            } while (consume(","));
            expect('}');
            return map;
        }
        if (c == '-' || c == '+' || c == '.' || Character.isDigit(c)) {
            return number();
        }
        if (Character.isLetter(c)) {
            String word = word();
            return switch (word.toLowerCase(Locale.ROOT)) {
                case "true" -> Boolean.TRUE;
                case "false" -> Boolean.FALSE;
                case "null" -> null;
                default -> throw error("'" + word + "' is not a value; quote text as '" + word + "'");
            };
        }
        throw error(atEnd() ? "a value is missing at the end" : "unexpected '" + c + "'");
    }

    private String string() {
        StringBuilder value = new StringBuilder();
        position++;
        while (true) {
            if (atEnd()) {
                throw error("a string is not closed");
            }
            char c = text.charAt(position++);
            if (c == '\'') {
                if (!atEnd() && text.charAt(position) == '\'') {
                    value.append('\'');
                    position++;
                    continue;
                }
                return value.toString();
            }
            value.append(c);
        }
    }

    private String quotedName() {
        int end = text.indexOf('"', position + 1);
        if (end < 0) {
            throw error("a quoted name is not closed");
        }
        String name = text.substring(position + 1, end);
        position = end + 1;
        return name;
    }

    private Object number() {
        int start = position;
        if (peek() == '-' || peek() == '+') {
            position++;
        }
        while (!atEnd() && (Character.isDigit(peek()) || peek() == '.' || peek() == 'e' || peek() == 'E')) {
            position++;
        }
        String number = text.substring(start, position);
        try {
            BigDecimal value = new BigDecimal(number);
            return value.scale() <= 0 && number.indexOf('.') < 0 && number.toLowerCase(Locale.ROOT).indexOf('e') < 0
                    ? (Object) value.longValueExact() : value;
        } catch (NumberFormatException | ArithmeticException e) {
            throw error("'" + number + "' is not a number");
        }
    }

    private String word() {
        int start = position;
        while (!atEnd() && (Character.isLetterOrDigit(peek()) || peek() == '_')) {
            position++;
        }
        if (start == position) {
            throw error(atEnd() ? "a name is missing at the end" : "unexpected '" + peek() + "'");
        }
        return text.substring(start, position);
    }

    private void skipBlanks() {
        while (!atEnd() && Character.isWhitespace(text.charAt(position))) {
            position++;
        }
    }

    private boolean consume(String token) {
        if (text.startsWith(token, position)) {
            position += token.length();
            return true;
        }
        return false;
    }

    private void expect(char c) {
        skipBlanks();
        if (atEnd() || text.charAt(position) != c) {
            throw error("expected '" + c + "'" + (atEnd() ? " at the end" : " before '" + text.substring(position, Math.min(text.length(), position + 10)) + "'"));
        }
        position++;
    }

    private char peek() {
        return atEnd() ? '\0' : text.charAt(position);
    }

    private boolean atEnd() {
        return position >= text.length();
    }

    private QuiverException error(String problem) {
        return new QuiverException(ErrorCode.SYNTAX_ERROR, "Cannot read the arguments of " + function + "(" + text + "): " + problem);
    }
}
