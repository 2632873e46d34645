package dev.quiver.engine.expr.kernel;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;

/**
 * regexp_matches, regexp_replace, regexp_extract and SIMILAR TO over Java regular expressions,
 * with DuckDB's options and replacement syntax. A constant pattern is compiled once per call
 * site ({@link Patterns#constant}); a pattern that varies by row is compiled when it changes.
 * ASCII rows are matched through a reused view of their bytes, other rows as strings.
 */
public final class RegexKernels {
    private RegexKernels() {}

    /** The patterns of one call: one compiled constant, or per row from a column. */
    public static final class Patterns {
        private final Pattern constant;
        private final StringColumn column;
        private final int flags;
        private final boolean similarTo;
        private final Character escape;
        private final String display;
        private String lastText;
        private Pattern last;

        private Patterns(Pattern constant, StringColumn column, int flags, boolean similarTo, Character escape, String display) {
            this.constant = constant;
            this.column = column;
            this.flags = flags;
            this.similarTo = similarTo;
            this.escape = escape;
            this.display = display;
        }

        public static Patterns constant(Pattern pattern) {
            return new Patterns(pattern, null, 0, false, null, "");
        }

        /** Regular expressions from a VARCHAR operand, compiled with {@code flags}. */
        public static Patterns perRow(Operand patterns, int flags, String display) {
            return new Patterns(null, new StringColumn(patterns), flags, false, null, display);
        }

        /** SIMILAR TO patterns (with an optional escape character) from a VARCHAR operand. */
        public static Patterns similarToPerRow(Operand patterns, Character escape, int flags, String display) {
            return new Patterns(null, new StringColumn(patterns), flags, true, escape, display);
        }

        Pattern pattern(int row) {
            if (constant != null) {
                return constant;
            }
            String text = new String(column.bytes(row), 0, column.length(row), StandardCharsets.UTF_8);
            if (!text.equals(lastText)) {
                last = compile(similarTo ? similarToRegex(text, escape, display) : text, flags, display);
                lastText = text;
            }
            return last;
        }

        boolean isNull(int row) {
            return column != null && column.isNull(row);
        }
    }

    /** Compiles a pattern; one that does not compile is INVALID_ARGUMENT naming the pattern and the place. */
    public static Pattern compile(String pattern, int flags, String display) {
        try {
            return Pattern.compile(posixClasses(pattern), flags);
        } catch (PatternSyntaxException e) {
            throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "Invalid regular expression '" + pattern + "': "
                    + e.getDescription() + (e.getIndex() >= 0 ? " near index " + e.getIndex() : "") + (display.isEmpty() ? "" : " in " + display));
        }
    }

    /** RE2's {@code [[:alpha:]]} classes (ASCII, as in DuckDB), which Java writes {@code \p{Alpha}}. */
    private static String posixClasses(String pattern) {
        if (!pattern.contains("[:")) {
            return pattern;
        }
        return pattern.replace("[:alpha:]", "\\p{Alpha}").replace("[:digit:]", "\\p{Digit}").replace("[:alnum:]", "\\p{Alnum}")
                .replace("[:upper:]", "\\p{Upper}").replace("[:lower:]", "\\p{Lower}").replace("[:space:]", "\\s")
                .replace("[:punct:]", "\\p{Punct}").replace("[:xdigit:]", "\\p{XDigit}").replace("[:word:]", "\\w")
                .replace("[:blank:]", "\\p{Blank}").replace("[:cntrl:]", "\\p{Cntrl}").replace("[:print:]", "\\p{Print}")
                .replace("[:graph:]", "\\p{Graph}");
    }

    /** DuckDB's options: i (case-insensitive), c (case-sensitive), s (. matches newline), m/n/p (newline-sensitive, the default), l (literal), g (all matches). */
    public record Options(int flags, boolean global) {
        public static Options parse(String text, String display) {
            int flags = 0;
            boolean global = false;
            for (char option : text.toCharArray()) {
                switch (option) {
                    case 'i' -> flags |= Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE;
                    case 'c' -> flags &= ~(Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
                    case 's' -> flags |= Pattern.DOTALL;
                    case 'm', 'n', 'p' -> flags &= ~Pattern.DOTALL;
                    case 'l' -> flags |= Pattern.LITERAL;
                    case 'g' -> global = true;
                    default -> throw new QuiverException(ErrorCode.INVALID_ARGUMENT,
                            "Unknown regular expression option '" + option + "' in " + display + "; options are i, c, s, m, n, p, l, g");
                }
            }
            return new Options(flags, global);
        }
    }

    /** Whether the pattern matches somewhere in the text (or, with {@code fullMatch}, the whole text). */
    public static FieldVector matches(Operand text, Operand pattern, Patterns patterns, boolean fullMatch, int rows,
            BufferAllocator allocator) {
        StringColumn s = new StringColumn(text);
        AsciiChars ascii = new AsciiChars();
        boolean[] results = new boolean[rows];
        Matcher matcher = null;
        Pattern current = null;
        for (int i = 0; i < rows; i++) {
            if (patterns.isNull(i)) {
                continue;
            }
            // a pattern is compiled (and a bad one fails) whatever the other arguments, as a constant one is
            Pattern compiled = patterns.pattern(i);
            if (s.isNull(i)) {
                continue;
            }
            if (compiled != current) {
                matcher = compiled.matcher("");
                current = compiled;
            }
            matcher.reset(chars(s, i, ascii));
            results[i] = fullMatch ? matcher.matches() : matcher.find();
        }
        return Results.booleans(results, rows, allocator, text, pattern);
    }

    /** regexp_extract: group {@code group} of the first match, '' when nothing matches or the group did not take part. */
    public static FieldVector extract(Operand text, Patterns patterns, int group, int rows, BufferAllocator allocator) {
        StringColumn s = new StringColumn(text);
        AsciiChars ascii = new AsciiChars();
        try (StringOutput out = new StringOutput(rows, s.totalBytes(rows), allocator)) {
            for (int i = 0; i < rows; i++) {
                Pattern pattern = patterns.isNull(i) ? null : patterns.pattern(i);
                if (pattern == null || s.isNull(i)) {
                    out.setNull(i);
                    continue;
                }
                CharSequence row = chars(s, i, ascii);
                Matcher matcher = pattern.matcher(row);
                if (!matcher.find() || group > matcher.groupCount() || matcher.start(group) < 0) {
                    out.set(i, s.bytes(i), 0, 0);
                    continue;
                }
                // character offsets are byte offsets in an ASCII row
                if (row == ascii) {
                    out.set(i, s.bytes(i), matcher.start(group), matcher.end(group) - matcher.start(group));
                } else {
                    byte[] bytes = row.subSequence(matcher.start(group), matcher.end(group)).toString().getBytes(StandardCharsets.UTF_8);
                    out.set(i, bytes, 0, bytes.length);
                }
            }
            return out.finish();
        }
    }

    /**
     * regexp_replace: the first match (every match with {@code global}) replaced; in the
     * replacement {@code \0}..{@code \9} stand for groups, {@code \\} for a backslash. As in RE2,
     * an empty match right after the previous match is not replaced.
     */
    public static FieldVector replace(Operand text, Patterns patterns, Operand replacement, boolean global, int rows,
            BufferAllocator allocator) {
        StringColumn s = new StringColumn(text);
        StringColumn r = new StringColumn(replacement);
        AsciiChars ascii = new AsciiChars();
        StringBuilder result = new StringBuilder();
        try (StringOutput out = new StringOutput(rows, s.totalBytes(rows), allocator)) {
            for (int i = 0; i < rows; i++) {
                Pattern pattern = patterns.isNull(i) ? null : patterns.pattern(i);
                if (pattern == null || s.isNull(i) || r.isNull(i)) {
                    out.setNull(i);
                    continue;
                }
                CharSequence row = chars(s, i, ascii);
                Matcher matcher = pattern.matcher(row);
                String rewrite = new String(r.bytes(i), 0, r.length(i), StandardCharsets.UTF_8);
                result.setLength(0);
                int copied = 0;
                int previousEnd = -1;
                while (matcher.find()) {
                    if (matcher.start() == matcher.end() && (matcher.start() == previousEnd || insideCharacter(row, matcher.start()))) {
                        continue;
                    }
                    result.append(row, copied, matcher.start());
                    appendRewrite(result, rewrite, matcher);
                    copied = matcher.end();
                    previousEnd = matcher.end();
                    if (!global) {
                        break;
                    }
                }
                result.append(row, copied, row.length());
                byte[] bytes = result.toString().getBytes(StandardCharsets.UTF_8);
                out.set(i, bytes, 0, bytes.length);
            }
            return out.finish();
        }
    }

    /** Whether {@code index} falls between the two halves of a surrogate pair (Java strings are UTF-16; SQL strings are code points). */
    private static boolean insideCharacter(CharSequence text, int index) {
        return index > 0 && index < text.length() && Character.isHighSurrogate(text.charAt(index - 1))
                && Character.isLowSurrogate(text.charAt(index));
    }

    private static void appendRewrite(StringBuilder out, String rewrite, Matcher matcher) {
        for (int k = 0; k < rewrite.length(); k++) {
            char c = rewrite.charAt(k);
            if (c == '\\' && k + 1 < rewrite.length()) {
                char next = rewrite.charAt(++k);
                if (next >= '0' && next <= '9') {
                    int group = next - '0';
                    if (group <= matcher.groupCount() && matcher.start(group) >= 0) {
                        out.append(matcher.group(group));
                    }
                } else {
                    out.append(next);
                }
            } else {
                out.append(c);
            }
        }
    }

    /**
     * A SQL SIMILAR TO pattern as a Java regular expression (SQL:2008, as in PostgreSQL): {@code %}
     * is any string, {@code _} any character, {@code | * + ? {m,n} ( ) [ ]} keep their regex
     * meaning, every other character (the dot included) is literal, and the escape character
     * makes the next one literal. The whole string must match.
     */
    public static String similarToRegex(String pattern, Character escape, String display) {
        StringBuilder regex = new StringBuilder();
        boolean inBracket = false;
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (escape != null && c == escape) {
                if (i + 1 >= pattern.length()) {
                    throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "SIMILAR TO pattern ends with the escape character: '" + pattern + "'"
                            + (display.isEmpty() ? "" : " in " + display));
                }
                regex.append(Pattern.quote(String.valueOf(pattern.charAt(++i))));
                continue;
            }
            if (inBracket) {
                regex.append(c == '\\' ? "\\\\" : String.valueOf(c));
                inBracket = c != ']';
                continue;
            }
            switch (c) {
                case '%' -> regex.append(".*");
                case '_' -> regex.append('.');
                case '|', '*', '+', '?', '{', '}', '(', ')' -> regex.append(c);
                case '[' -> {
                    regex.append('[');
                    inBracket = true;
                }
                default -> regex.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return regex.toString();
    }

    /** The row as characters: the reused ASCII view when every byte is ASCII, a decoded string otherwise. */
    private static CharSequence chars(StringColumn column, int row, AsciiChars ascii) {
        byte[] bytes = column.bytes(row);
        int length = column.length(row);
        for (int k = 0; k < length; k++) {
            if (bytes[k] < 0) {
                return new String(bytes, 0, length, StandardCharsets.UTF_8);
            }
        }
        return ascii.wrap(bytes, length);
    }

    /** ASCII bytes seen as characters, without copying. */
    private static final class AsciiChars implements CharSequence {
        private byte[] bytes;
        private int length;

        AsciiChars wrap(byte[] bytes, int length) {
            this.bytes = bytes;
            this.length = length;
            return this;
        }

        @Override
        public int length() {
            return length;
        }

        @Override
        public char charAt(int index) {
            return (char) bytes[index];
        }

        @Override
        public CharSequence subSequence(int start, int end) {
            return new String(bytes, start, end - start, StandardCharsets.US_ASCII);
        }

        @Override
        public String toString() {
            return new String(bytes, 0, length, StandardCharsets.US_ASCII);
        }
    }
}
