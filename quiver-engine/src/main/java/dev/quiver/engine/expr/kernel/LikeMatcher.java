package dev.quiver.engine.expr.kernel;

import dev.quiver.engine.error.ErrorCode;
import dev.quiver.engine.error.QuiverException;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.arrow.memory.ArrowBuf;

/**
 * A LIKE pattern compiled once: exact, prefix%, %suffix and %infix% patterns compare bytes
 * directly; anything else runs a backtracking wildcard matcher over the UTF-8 bytes, where
 * {@code _} steps over one whole character.
 */
public final class LikeMatcher {
    private static final int PERCENT = -1;
    private static final int ANY_ONE = -2;

    private enum Kind { EXACT, PREFIX, SUFFIX, CONTAINS, ANY, GENERAL }

    private final Kind kind;
    private final byte[] literal;
    private final int[] tokens;

    private LikeMatcher(Kind kind, byte[] literal, int[] tokens) {
        this.kind = kind;
        this.literal = literal;
        this.tokens = tokens;
    }

    public static LikeMatcher compile(String pattern, Optional<Character> escape) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        List<Integer> tokens = new ArrayList<>();
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (escape.isPresent() && c == escape.get()) {
                if (i + 1 >= pattern.length()) {
                    throw new QuiverException(ErrorCode.INVALID_ARGUMENT, "LIKE pattern ends with the escape character: " + pattern);
                }
                i++;
                int codePoint = pattern.codePointAt(i);
                i += Character.charCount(codePoint) - 1;
                addLiteral(tokens, new String(Character.toChars(codePoint)));
            } else if (c == '%') {
                if (tokens.isEmpty() || tokens.get(tokens.size() - 1) != PERCENT) {
                    tokens.add(PERCENT);
                }
            } else if (c == '_') {
                tokens.add(ANY_ONE);
            } else {
                int codePoint = pattern.codePointAt(i);
                i += Character.charCount(codePoint) - 1;
                addLiteral(tokens, new String(Character.toChars(codePoint)));
            }
        }
        int[] compiled = tokens.stream().mapToInt(Integer::intValue).toArray();
        int percents = 0;
        boolean anyOne = false;
        for (int token : compiled) {
            percents += token == PERCENT ? 1 : 0;
            anyOne |= token == ANY_ONE;
        }
        if (!anyOne) {
            boolean leading = compiled.length > 0 && compiled[0] == PERCENT;
            boolean trailing = compiled.length > 0 && compiled[compiled.length - 1] == PERCENT;
            for (int token : compiled) {
                if (token >= 0) {
                    bytes.write(token);
                }
            }
            byte[] literal = bytes.toByteArray();
            if (percents == 0) {
                return new LikeMatcher(Kind.EXACT, literal, compiled);
            }
            if (percents == 1 && compiled.length == 1) {
                return new LikeMatcher(Kind.ANY, literal, compiled);
            }
            if (percents == 1 && trailing) {
                return new LikeMatcher(Kind.PREFIX, literal, compiled);
            }
            if (percents == 1 && leading) {
                return new LikeMatcher(Kind.SUFFIX, literal, compiled);
            }
            if (percents == 2 && leading && trailing) {
                return new LikeMatcher(Kind.CONTAINS, literal, compiled);
            }
        }
        return new LikeMatcher(Kind.GENERAL, null, compiled);
    }

    private static void addLiteral(List<Integer> tokens, String character) {
        for (byte b : character.getBytes(StandardCharsets.UTF_8)) {
            tokens.add(b & 0xFF);
        }
    }

    /** Whether the UTF-8 bytes {@code data[start, end)} match. */
    public boolean matches(ArrowBuf data, int start, int end) {
        int length = end - start;
        return switch (kind) {
            case ANY -> true;
            case EXACT -> length == literal.length && regionEquals(data, start, 0, literal.length);
            case PREFIX -> length >= literal.length && regionEquals(data, start, 0, literal.length);
            case SUFFIX -> length >= literal.length && regionEquals(data, end - literal.length, 0, literal.length);
            case CONTAINS -> indexOf(data, start, end) >= 0;
            case GENERAL -> general(data, start, end);
        };
    }

    private boolean regionEquals(ArrowBuf data, int offset, int literalOffset, int count) {
        for (int k = 0; k < count; k++) {
            if (data.getByte(offset + k) != literal[literalOffset + k]) {
                return false;
            }
        }
        return true;
    }

    private int indexOf(ArrowBuf data, int start, int end) {
        if (literal.length == 0) {
            return start;
        }
        byte first = literal[0];
        for (int i = start; i <= end - literal.length; i++) {
            if (data.getByte(i) == first && regionEquals(data, i + 1, 1, literal.length - 1)) {
                return i;
            }
        }
        return -1;
    }

    /** Greedy matching with backtracking to the last {@code %}: linear in practice, O(n*m) at worst. */
    private boolean general(ArrowBuf data, int start, int end) {
        int i = start;
        int j = 0;
        int starToken = -1;
        int starText = -1;
        int n = tokens.length;
        while (i < end) {
            if (j < n && tokens[j] == ANY_ONE) {
                i += charLength(data.getByte(i));
                j++;
            } else if (j < n && tokens[j] >= 0 && tokens[j] == (data.getByte(i) & 0xFF)) {
                i++;
                j++;
            } else if (j < n && tokens[j] == PERCENT) {
                starToken = j++;
                starText = i;
            } else if (starToken >= 0) {
                j = starToken + 1;
                starText += charLength(data.getByte(starText));
                i = starText;
            } else {
                return false;
            }
        }
        while (j < n && tokens[j] == PERCENT) {
            j++;
        }
        return j == n && i == end;
    }

    static int charLength(byte lead) {
        int b = lead & 0xFF;
        if (b < 0x80) {
            return 1;
        }
        if (b >= 0xF0) {
            return 4;
        }
        if (b >= 0xE0) {
            return 3;
        }
        return b >= 0xC0 ? 2 : 1;
    }
}
